/// How much of the machine the shop over SSH gives: sessions, new accounts and idle time (each
/// may change while the server runs, ``LiveSettings``).
public struct SSHLimits: Sendable, Equatable {
    /// Sessions at once, in all.
    public var maxSessions = 200
    /// Sessions at once of one key, and of one address.
    public var maxSessionsPerVisitor = 4
    /// Accounts made for new keys per hour, per address (ten times as many in all); 0: no limit.
    public var newKeysPerHour = 10
    /// Commands over SSH per minute, per key and per address (three times as many per network).
    public var commandsPerMinute = 60
    /// A session that receives nothing for this long is closed.
    public var idleLimit: Duration = .seconds(60 * 60)

    public init() {}
}
