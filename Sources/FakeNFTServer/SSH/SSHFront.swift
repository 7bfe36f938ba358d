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
    static let needsTerminal = "This is an interactive shop: use ssh -t."
    /// What a visitor who sent a command reads.
    static let noCommands = "This is an interactive shop, not a shell: connect without a command."
    /// Shown once signed in (NIOSSH sends the banner with the sign-in's success only).
    static let banner = """
        FakeNFT shop: an Ed25519 or ECDSA key (ssh-keygen -t ed25519) is your account here; without \
        one (or with RSA), any password lets you in as a guest.

        """

    func run() async throws {
        // Connections, signed in or not: twice the sessions, so that handshakes cannot take every place.
        let connections = OpenConnections(
            maximum: 2 * shop.configuration.maxSessions, perAddress: 2 * shop.configuration.maxSessionsPerVisitor)
        let shop = shop, hostKey = hostKey
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                let address = channel.remoteAddress?.ipAddress ?? "unknown"
                let proxied = shop.configuration.trustedProxies.contains { $0.contains(address) }
                guard connections.add(channel, countingAddress: !proxied) else {
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

    /// Sets up one connection: SSH with key-only sign-in, sessions as its only channels, and a
    /// deadline for signing in; from a trusted proxy, the visitor's address from its PROXY line.
    private static func serve(_ channel: any Channel, proxied: Bool, shop: SSHShop, hostKey: NIOSSHPrivateKey)
        throws
    {
        let peer = ConnectionPeer(address: channel.remoteAddress?.ipAddress ?? "unknown")
        if proxied { try channel.pipeline.syncOperations.addHandler(ProxyHeaderReader(peer: peer)) }
        let signIn = VisitorSignIn()
        var server = SSHServerConfiguration(
            hostKeys: [hostKey], userAuthDelegate: signIn,
            banner: .init(message: banner, languageTag: "en"))
        server.maxAuthAttempts = 6
        let handler = NIOSSHHandler(role: .server(server), allocator: channel.allocator) { child, type in
            guard case .session = type, let visitor = signIn.visitor(from: peer.address) else {
                shop.metrics.refused(.forwarding)
                return child.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
            }
            return child.eventLoop.makeCompletedFuture {
                try child.pipeline.syncOperations.addHandler(
                    IdleStateHandler(
                        readTimeout: TimeAmount(shop.configuration.idleLimit)))
                try child.pipeline.syncOperations.addHandler(SSHSessionHandler(shop: shop, visitor: visitor))
            }
        }
        try channel.pipeline.syncOperations.addHandlers(handler, CloseOnError())
        let signedIn = NIOLoopBound(signIn, eventLoop: channel.eventLoop)
        channel.eventLoop.scheduleTask(in: TimeAmount(shop.configuration.handshakeLimit)) {
            guard !signedIn.value.isSignedIn, channel.isActive else { return }
            shop.metrics.refused(.handshake)
            channel.close(promise: nil)
        }
    }
}

/// Sign-in with a public key (NIOSSH has checked its signature before it asks): any key is
/// welcome, as it opens an account of its own. Without a usable key (none, or RSA, which NIOSSH
/// cannot verify), OpenSSH's client falls back to a password: any password lets a guest in.
private final class VisitorSignIn: NIOSSHServerUserAuthenticationDelegate {
    private enum Signed { case key(String), guest }
    private var signed: Signed?
    private var user = ""

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
    }

    /// Whether a visitor has signed in on this connection.
    var isSignedIn: Bool { signed != nil }

    /// The visitor signed in on this connection, once one has.
    func visitor(from address: String) -> SSHShop.Visitor? {
        switch signed {
        case .key(let fingerprint): SSHShop.Visitor(fingerprint: fingerprint, user: user, address: address)
        case .guest: SSHShop.Visitor(fingerprint: nil, user: user, address: address)
        case nil: nil
        }
    }
}

/// The connections open now, each address's within a limit, closed together when the server stops.
private final class OpenConnections: Sendable {
    private struct Open {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var byAddress: [String: Int] = [:]
    }

    private let open = Mutex(Open())
    private let maximum: Int
    private let perAddress: Int

    init(maximum: Int, perAddress: Int) {
        self.maximum = maximum
        self.perAddress = perAddress
    }

    /// Counts `channel` in until it closes (among its address's too, unless `countingAddress` is
    /// false: a proxy's connections are its visitors'); false when there is no place for it.
    func add(_ channel: any Channel, countingAddress: Bool) -> Bool {
        let id = ObjectIdentifier(channel)
        let address = countingAddress ? channel.remoteAddress?.ipAddress ?? "unknown" : "proxied"
        let added = open.withLock { open in
            guard open.channels.count < maximum, !countingAddress || open.byAddress[address, default: 0] < perAddress
            else { return false }
            open.channels[id] = channel
            open.byAddress[address, default: 0] += 1
            return true
        }
        guard added else { return false }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.open.withLock { open in
                open.channels[id] = nil
                guard countingAddress else { return }
                open.byAddress[address, default: 1] -= 1
                if open.byAddress[address] == 0 { open.byAddress[address] = nil }
            }
        }
        return true
    }

    func closeAll() {
        for channel in open.withLock({ Array($0.channels.values) }) { channel.close(promise: nil) }
    }
}

/// Closes a connection whose bytes are not SSH (or break it): nothing is left half open.
private final class CloseOnError: ChannelInboundHandler, Sendable {
    typealias InboundIn = Any

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
}
