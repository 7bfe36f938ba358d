import Foundation

/// The shop over SSH (`fakenft serve --ssh-port`): where it listens, its host key, the app it runs
/// for each visitor and its limits.
public struct SSHConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// The host key's file (OpenSSH's format); nil: `ssh_host_ed25519_key` in the data folder,
    /// made on the first start.
    public var hostKeyPath: String?
    /// The `fakenft` binary each session runs (`fakenft app`): this one.
    public var appExecutable: String
    /// Sessions at once, in all.
    public var maxSessions = 200
    /// Sessions at once of one key, and of one address.
    public var maxSessionsPerVisitor = 4
    /// Accounts made for new keys per hour, per address (ten times as many in all); 0: no limit.
    public var newKeysPerHour = 10
    /// A session that receives nothing for this long is closed.
    public var idleLimit: Duration = .seconds(60 * 60)
    /// A connection not signed in within this long is closed.
    public var handshakeLimit: Duration = .seconds(10)
    /// Proxies whose PROXY protocol line names the visitor (`--trusted-proxy`), as limits count
    /// visitors by address.
    public var trustedProxies: [IPAddressRange] = []

    public init(host: String, port: Int, hostKeyPath: String? = nil, appExecutable: String) {
        self.host = host
        self.port = port
        self.hostKeyPath = hostKeyPath
        self.appExecutable = appExecutable
    }
}
