import LineLog
import Logging
import Synchronization

/// What a running server may change without a restart (`fakenft serve`'s SIGHUP): the answers'
/// delay, the log's level, read-only, sign-ups per hour and the SSH front's limits. Held once and
/// read where each acts, so a change reaches every connection and session already open; the rest
/// of ``ServerConfiguration`` is fixed while the server runs.
public final class LiveSettings: Sendable {
    /// The values that may change.
    struct Values: Sendable, Equatable {
        var latencyMilliseconds: Int
        var logRequests: Bool
        var readOnly: Bool
        var signUpsPerHour: Int
        var ssh: SSHLimits

        init(_ configuration: ServerConfiguration) {
            latencyMilliseconds = configuration.latencyMilliseconds
            logRequests = configuration.logRequests
            readOnly = configuration.readOnly
            signUpsPerHour = configuration.signUpsPerHour
            ssh = configuration.ssh?.limits ?? SSHLimits()
        }
    }

    /// `fakenft serve`'s options for what may change.
    public static let optionNames: Set = [
        "latency", "quiet", "read-only", "sign-ups-per-hour", "ssh-max-sessions", "ssh-max-per-visitor",
        "ssh-idle-minutes", "ssh-new-keys-per-hour",
    ]

    private let values: Mutex<Values>
    /// The level of every log line the server writes (info, or error when requests are not logged).
    let logLevel: LineLogHandler.Level

    init(_ configuration: ServerConfiguration) {
        values = Mutex(Values(configuration))
        logLevel = LineLogHandler.Level(Self.level(logRequests: configuration.logRequests))
    }

    var latencyMilliseconds: Int { values.withLock { $0.latencyMilliseconds } }
    var readOnly: Bool { values.withLock { $0.readOnly } }
    var signUpsPerHour: Int { values.withLock { $0.signUpsPerHour } }
    var ssh: SSHLimits { values.withLock { $0.ssh } }

    /// Takes what may change from `configuration`; returns whether anything did.
    @discardableResult
    public func apply(_ configuration: ServerConfiguration) -> Bool {
        let new = Values(configuration)
        let changed = values.withLock { values in
            defer { values = new }
            return values != new
        }
        logLevel.current = Self.level(logRequests: new.logRequests)
        return changed
    }

    private static func level(logRequests: Bool) -> Logger.Level { logRequests ? .info : .error }
}
