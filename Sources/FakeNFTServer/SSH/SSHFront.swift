import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSH
import ServiceLifecycle
import Synchronization

/// The shop over SSH: a listener beside HTTP, one more service of the server's group. A visitor
/// signs in with a key (or with any password, as a guest), asks for a terminal and gets the app on
/// it (``SSHShop``); everything else (commands, sftp, forwarding) is refused with a reason.
struct SSHFront: Service {
    let shop: SSHShop
    let hostKey: NIOSSHPrivateKey
    /// Told the port listened on and the host key's fingerprint, once it listens.
    let onListening: @Sendable (_ port: Int, _ fingerprint: String) -> Void

    /// What a visitor without a terminal reads (`ssh host` from a pipe, `ssh -T`).
    static let needsTerminal = "This is an interactive shop: use ssh -t, or give a command (ssh host help)."
    /// Shown once signed in (NIOSSH sends the banner with the sign-in's success only).
    static let banner = """
        FakeNFT shop: an Ed25519 or ECDSA key (ssh-keygen -t ed25519) is your account here; without \
        one (or with RSA), any password lets you in as a guest.

        """

    func run() async throws {
        await shop.recover()
        let shop = shop, hostKey = hostKey
        let connections = OpenConnections { shop.settings.ssh }
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                let address = channel.remoteAddress?.ipAddress ?? "unknown"
                let proxied = shop.configuration.trustedProxies.contains { $0.contains(address) }
                switch connections.add(channel, countingAddress: !proxied) {
                case nil: break
                case .telling(let words):
                    shop.metrics.refused(.connections)
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(RefusedAtTheDoor(message: words))
                    }
                case .closing:
                    shop.metrics.refused(.connections)
                    return channel.close()
                }
                return channel.eventLoop.makeCompletedFuture {
                    try Self.serve(channel, proxied: proxied, shop: shop, hostKey: hostKey)
                }
            }
            .bind(host: shop.configuration.host, port: shop.configuration.port).get()
        onListening(listener.localAddress?.port ?? shop.configuration.port, SSHHostKey.fingerprint(hostKey.publicKey))
        // Sessions are closed as their apps exit, until the listener is closed and the last one
        // has ended: when the server stops, each app is asked to end (and killed after 2 s), its
        // visitor told why, within a bound of 3 s; then every connection still open is closed.
        await shop.closeEndedSessions(
            stopping: {
                try? await withGracefulShutdownHandler {
                    try await listener.closeFuture.get()
                } onGracefulShutdown: {
                    listener.close(promise: nil)
                    shop.closeAll()
                }
            }, within: .seconds(3))
        connections.closeAll()
    }

    /// Sets up one connection: SSH with key-only sign-in, sessions as its only channels, a
    /// deadline for signing in and, once signed in, for opening a session (``sessionLimit``);
    /// from a trusted proxy, the visitor's address from its PROXY line.
    private static func serve(_ channel: any Channel, proxied: Bool, shop: SSHShop, hostKey: NIOSSHPrivateKey)
        throws
    {
        let peer = ConnectionPeer(address: channel.remoteAddress?.ipAddress ?? "unknown")
        let door = channel.localAddress.map { "ssh -t -p \($0.port ?? 22) \($0.ipAddress ?? "localhost")" } ?? "ssh -t"
        if proxied { try channel.pipeline.syncOperations.addHandler(ProxyHeaderReader(peer: peer)) }
        let visit = NIOLoopBound(VisitorConnection(channel, metrics: shop.metrics), eventLoop: channel.eventLoop)
        var server = SSHServerConfiguration(
            hostKeys: [hostKey], userAuthDelegate: visit.value, globalRequestDelegate: visit.value,
            banner: .init(message: banner, languageTag: "en"))
        server.maxAuthAttempts = 6
        server.transportProtectionSchemes = [PacketCipher<AES256Key>.self, PacketCipher<AES128Key>.self]
        let handler = NIOSSHHandler(role: .server(server), allocator: channel.allocator) { child, type in
            guard case .session = type, let visitor = visit.value.visitor(from: peer.address, door: door) else {
                visit.value.forwardingAsked = true
                shop.metrics.refused(.forwarding)
                return child.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
            }
            visit.value.sessionOpened()
            child.closeFuture.whenComplete { _ in visit.value.sessionClosed() }
            return child.eventLoop.makeCompletedFuture {
                // The visitor's end of input is an event, not the channel's close: a refusal
                // decided after it still reaches them.
                try child.syncOptions?.setOption(ChannelOptions.allowRemoteHalfClosure, value: true)
                try child.pipeline.syncOperations.addHandler(
                    SSHSessionHandler(shop: shop, visitor: visitor, connection: visit.value))
            }
        }
        try channel.pipeline.syncOperations.addHandlers(handler, CloseOnError())
        channel.eventLoop.scheduleTask(in: TimeAmount(shop.configuration.handshakeLimit)) {
            guard !visit.value.isSignedIn, channel.isActive else { return }
            shop.metrics.refused(.handshake)
            channel.close(promise: nil)
        }
    }

    /// How long a signed-in connection may hold its place without a session: to open its first
    /// one, and after its last one closed. (OpenSSH's client opens one at once; `ssh -N` and a
    /// connection kept for sharing hold a place for nothing.) NIOSSH sends no reason with the close.
    static let sessionLimit: Duration = .seconds(10)
}

/// One visitor's connection, on its event loop: sign-in with a public key (NIOSSH has checked its
/// signature before it asks): any key is welcome, as it opens an account of its own. Without a
/// usable key (none, or RSA, which NIOSSH cannot verify), OpenSSH's client falls back to a
/// password: any password lets a guest in. Global requests (`ssh -R`) are refused, and noted so
/// that the visitor is told why when the session ends; sessions are counted, so that a connection
/// without one is closed.
final class VisitorConnection: NIOSSHServerUserAuthenticationDelegate, GlobalRequestDelegate {
    private enum Signed { case key(String), guest }
    private var signed: Signed?
    private var user = ""
    /// Session channels open now.
    private(set) var sessions = 0
    /// The visitor asked for port forwarding (either way): refused, and said why at the session's end.
    var forwardingAsked = false
    /// The connection, closed when it holds no session for ``SSHFront/sessionLimit``.
    private weak var channel: (any Channel)?
    private let metrics: SSHMetrics

    init(_ channel: any Channel, metrics: SSHMetrics) {
        self.channel = channel
        self.metrics = metrics
    }

    var supportedAuthenticationMethods: NIOSSHAvailableUserAuthenticationMethods { [.publicKey, .password] }

    func requestReceived(
        request: NIOSSHUserAuthenticationRequest, responsePromise: EventLoopPromise<NIOSSHUserAuthenticationOutcome>
    ) {
        switch request.request {
        case .publicKey(let offer): signed = .key(SSHHostKey.fingerprint(offer.publicKey))
        case .password: signed = .guest
        default: return responsePromise.succeed(.failure)
        }
        user = request.username
        responsePromise.succeed(.success)
        whenNoSession()
    }

    func tcpForwardingRequest(
        _ request: GlobalRequest.TCPForwardingRequest, handler: NIOSSHHandler,
        promise: EventLoopPromise<GlobalRequest.TCPForwardingResponse>
    ) {
        forwardingAsked = true
        promise.fail(ChannelError.operationUnsupported)
    }

    func sessionOpened() { sessions += 1 }

    func sessionClosed() {
        sessions -= 1
        if sessions == 0 { whenNoSession() }
    }

    /// Closes the connection unless a session opens within ``SSHFront/sessionLimit``.
    private func whenNoSession() {
        guard let channel else { return }
        let this = NIOLoopBound(self, eventLoop: channel.eventLoop), metrics = metrics
        channel.eventLoop.scheduleTask(in: TimeAmount(SSHFront.sessionLimit)) {
            guard this.value.sessions == 0, channel.isActive else { return }
            metrics.refused(.noSession)
            channel.close(promise: nil)
        }
    }

    /// Whether a visitor has signed in on this connection.
    var isSignedIn: Bool { signed != nil }

    /// The visitor signed in on this connection, once one has.
    func visitor(from address: String, door: String) -> SSHShop.Visitor? {
        switch signed {
        case .key(let fingerprint): SSHShop.Visitor(fingerprint: fingerprint, user: user, address: address, door: door)
        case .guest: SSHShop.Visitor(fingerprint: nil, user: user, address: address, door: door)
        case nil: nil
        }
    }
}

/// The connections open now, each address's and each network's within a limit, closed together
/// when the server stops.
private final class OpenConnections: Sendable {
    private struct Open {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var counts: [String: Int] = [:]
    }

    private let open = Mutex(Open())
    /// Connections being told why they are turned away (each for ``RefusedAtTheDoor/lingering`` at
    /// most): as many as ``maximum``; past that a flood is closed without words.
    private let refusing = Mutex(0)
    /// The SSH limits now, which the connections' are made from.
    private let limits: @Sendable () -> SSHLimits

    init(limits: @escaping @Sendable () -> SSHLimits) {
        self.limits = limits
    }

    /// A connection with no place: told why (the words), or, past as many being told as there are
    /// places, closed at once.
    enum Refusal {
        case telling(String)
        case closing
    }

    /// Counts `channel` in until it closes (among its address's and its network's too, unless
    /// `countingAddress` is false: a proxy's connections are its visitors'); when there is no
    /// place for it, how it is turned away instead.
    func add(_ channel: any Channel, countingAddress: Bool) -> Refusal? {
        let id = ObjectIdentifier(channel)
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        let keys = countingAddress ? ["address " + address, "network " + SSHNewVisitors.network(of: address)] : []
        // Connections, signed in or not: twice the sessions, so that handshakes cannot take every
        // place; per address twice a visitor's sessions, per network four times that.
        let limits = limits()
        let maximum = 2 &* limits.maxSessions, perAddress = 2 &* limits.maxSessionsPerVisitor
        let perNetwork = 4 &* perAddress
        let refused: String? = open.withLock { open in
            if open.channels.count >= maximum { return "The shop has as many visitors as it can take: come back soon." }
            if let key = keys.first, open.counts[key, default: 0] >= perAddress {
                return "Your address has as many connections open as it may: close one first."
            }
            if let key = keys.last, open.counts[key, default: 0] >= perNetwork {
                return "Your network has as many connections open as it may: come back soon."
            }
            open.channels[id] = channel
            for key in keys { open.counts[key, default: 0] += 1 }
            return nil
        }
        if let refused {
            let told = refusing.withLock { count in
                guard count < maximum else { return false }
                count += 1
                return true
            }
            guard told else { return .closing }
            channel.closeFuture.whenComplete { [weak self] _ in self?.refusing.withLock { $0 -= 1 } }
            return .telling(refused)
        }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.open.withLock { open in
                open.channels[id] = nil
                for key in keys {
                    open.counts[key, default: 1] -= 1
                    if open.counts[key] == 0 { open.counts[key] = nil }
                }
            }
        }
        return nil
    }

    func closeAll() {
        for channel in open.withLock({ Array($0.channels.values) }) { channel.close(promise: nil) }
    }
}

/// Turns a connection away with words the visitor's client prints: the server's version line and
/// an SSH disconnect message (plain, as before any key exchange); then the sending side is shut
/// and what the client sends is read and dropped until it leaves (``lingering`` at most), so that
/// the close does not reset the connection before the client read the words.
private final class RefusedAtTheDoor: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let message: String
    /// How long a turned-away client has to read the words and leave.
    static let lingering: TimeAmount = .seconds(5)

    init(message: String) { self.message = message }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) { refuse(context) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func refuse(_ context: ChannelHandlerContext) {
        let bytes = SSHDisconnect.bytes(reason: SSHDisconnect.tooManyConnections, message)
        let channel = context.channel
        context.writeAndFlush(NIOAny(channel.allocator.buffer(bytes: bytes))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
        channel.eventLoop.scheduleTask(in: Self.lingering) { channel.close(promise: nil) }
    }
}

/// Closes a connection whose bytes are not SSH (or break it): nothing is left half open.
private final class CloseOnError: ChannelInboundHandler, Sendable {
    typealias InboundIn = Any

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
}
