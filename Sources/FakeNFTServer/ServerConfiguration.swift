import Foundation
import LineLog

/// How to run the FakeNFT server.
public struct ServerConfiguration: Sendable {
    /// What a fresh (or reset) database is filled with.
    public enum Seed: Sendable, Hashable {
        /// The first-generation data set (9 collections, 95 NFTs, 100 users, 8 currencies).
        case gen1
        /// gen1 plus generated users and NFTs, for paging tests and benchmarks.
        case large(users: Int, nfts: Int)
    }

    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// Folder of the SQLite database (and of the log files).
    public var dataDirectory: URL
    /// A PostgreSQL database (`postgres://user[:password]@host[:port]/database`) instead of
    /// SQLite, for several servers on one database.
    public var postgresURL: String?
    /// When set, every request must carry it in `X-Practicum-Mobile-Token`.
    public var token: String?
    /// Artificial delay before every answer.
    public var latencyMilliseconds: Int
    /// Reseed even when the database already has data.
    public var reset: Bool
    public var seed: Seed
    /// Payment outcome per currency id, overriding the data set's.
    public var paymentOutcomes: [String: Bool]
    /// Log every request, not only failures.
    public var logRequests: Bool
    /// Where the log goes: stderr for `fakenft serve`; a file for the embedded server, which
    /// shares the terminal with the UI.
    public var log: LogDestination
    /// Seconds before a connection that sends nothing is closed.
    public var idleTimeout: Int
    /// Where the API's image fields point: this server's `/images/…` (the default) or the real hosts.
    public var imageLinks: ImageLinks
    /// Sign-ups one client may make per hour; 0: no limit.
    public var signUpsPerHour = 20
    /// Proxies whose `X-Forwarded-For` names the client (addresses or networks); from other
    /// peers the header is ignored.
    public var trustedProxies: [IPAddressRange] = []

    /// Refuse every change (403 with the reason): a demo or a shared screen.
    public var readOnly = false
    /// What a change to a list (likes, the cart) sent without `If-Match` does.
    public var listWrites: ListWrites = .replace

    /// What a change to a list sent without `If-Match` does (the iOS apps send none).
    public enum ListWrites: String, Sendable, Hashable, CaseIterable {
        /// The list becomes the one sent, as on the real backend (a change another client made
        /// since this one read the list is undone).
        case replace
        /// The ids added and removed since this client (its address) last read or wrote the
        /// list are applied to the list as it is now: two clients changing different ids both
        /// keep their changes. A client the server does not remember replaces the list.
        case merge
    }

    /// How long a sign-in may go unused before it expires, in seconds (30 days).
    public var sessionIdleLimit: TimeInterval = 30 * 86_400
    /// Where `/metrics` is served.
    public var metrics: MetricsExposure = .loopbackOnAPIPort
    /// How log lines are written.
    public var logFormat: LineLogHandler.Format = .text
    /// The shop over SSH, when it is served.
    public var ssh: SSHConfiguration?

    /// Where `/metrics` is served.
    public enum MetricsExposure: Sendable, Hashable {
        /// On the API's port, to loopback clients only (a trusted proxy's client is not one).
        case loopbackOnAPIPort
        /// On a listener of its own, to whoever reaches it.
        case listener(host: String, port: Int)
        case off
    }

    /// Where the server's log lines go.
    public enum LogDestination: Sendable, Hashable {
        case standardError
        /// Appended to `server.log` in the data folder.
        case dataDirectoryFile
    }

    public init(
        host: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL, token: String? = nil,
        latencyMilliseconds: Int = 0, reset: Bool = false, seed: Seed = .gen1,
        paymentOutcomes: [String: Bool] = [:], logRequests: Bool = false, log: LogDestination = .dataDirectoryFile,
        idleTimeout: Int = 30, imageLinks: ImageLinks = .local(publicURL: nil), postgresURL: String? = nil
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.postgresURL = postgresURL
        self.token = token
        self.latencyMilliseconds = latencyMilliseconds
        self.reset = reset
        self.seed = seed
        self.paymentOutcomes = paymentOutcomes
        self.logRequests = logRequests
        self.log = log
        self.idleTimeout = idleTimeout
        self.imageLinks = imageLinks
    }

    /// `$XDG_DATA_HOME/fakenft` (default `~/.local/share/fakenft`).
    public static func defaultDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL
    {
        let base =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        return base.appendingPathComponent("fakenft")
    }

    /// Parses payment outcomes like `2=ok,5=fail`.
    public static func parsePaymentOutcomes(_ text: String) -> [String: Bool]? {
        var outcomes: [String: Bool] = [:]
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, ["ok", "fail"].contains(parts[1]) else { return nil }
            outcomes[parts[0]] = parts[1] == "ok"
        }
        return outcomes
    }
}
