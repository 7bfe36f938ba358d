import Hummingbird
import NIOCore

/// Hummingbird's request context and the client's address (sign-in failures are counted per client).
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address, as rate limits key it.
    var clientKey: String { "client:" + (remoteAddress?.ipAddress ?? "unknown") }
}
