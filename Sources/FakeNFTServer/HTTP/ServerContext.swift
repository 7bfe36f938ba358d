import Hummingbird
import NIOCore

/// Hummingbird's request context and the client's address (sign-ins, sign-ups and event
/// streams are limited per client).
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address: the connection's peer, or the client a trusted proxy names
    /// (``ForwardedClientMiddleware``). Worked out when asked: most requests never ask.
    var clientAddress: String {
        get { forwardedClient ?? channel.remoteAddress?.ipAddress ?? "unknown" }
        set { forwardedClient = newValue }
    }
    private var forwardedClient: String?
    /// The SSH session whose app sent the request (``ForwardedClientMiddleware``): its number.
    var sshSession: Int?
    /// The account a command over SSH acts for (its key's): set only by ``RouterCall`` in the
    /// server's own process, never from anything a request says; nil for every request over HTTP.
    var actingOwner: String?
    private let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// Closes the connection at once (a client whose body is too slow is not waited for: no
    /// answer is owed to it).
    func closeConnection() { channel.close(promise: nil) }

    /// The client's IP address, as rate limits key it.
    var clientKey: String { "client:" + clientAddress }

    /// The client's network (its /24 or /64), as sign-ups are limited: a client that rotates
    /// its addresses within its network is still one client. Loopback is one network, but for
    /// an SSH visitor, whose network is counted as the SSH front's door counts it.
    var clientNetworkKey: String {
        "network:" + IPAddressRange.network(of: clientAddress, loopbackAsOne: sshSession == nil)
    }

    /// Who an event stream is counted for: the network, but for an SSH session's app, its session
    /// (the SSH front's door already limits a network's sessions, each of which has its stream).
    var eventStreamClient: ChangeFeed.Client {
        sshSession.map { .sshSession($0) } ?? .network(clientNetworkKey)
    }
}
