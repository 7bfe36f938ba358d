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
    /// Sessions, new accounts and idle time, as the server starts (then ``LiveSettings``).
    public var limits = SSHLimits()
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
