import Hummingbird
import NIOCore

/// Hummingbird's request context and the client's address (sign-ins, sign-ups and event
/// streams are limited per client).
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address: the connection's peer, or the client a trusted proxy names
    /// (``ForwardedClientMiddleware``).
    var clientAddress: String
    private let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        channel = source.channel
    }

    /// Reads nothing more from the connection, which closes once the answer is written, and in
    /// any case a second later (a client whose body is too slow gets its 408, then the
    /// connection is not held for the rest).
    func stopReading() {
        let channel = channel
        channel.close(mode: .input, promise: nil)
        channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }

    /// The client's IP address, as rate limits key it.
    var clientKey: String { "client:" + clientAddress }
}
