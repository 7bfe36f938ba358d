import Foundation

/// When the rate-the-app prompt asks, for one account: once the account has done something (a
/// like, the cart, a payment) on ``firstAfter`` starts, at the next start; or right after its
/// first payment. "Not now" asks again ``againAfter`` starts later, at most ``maxAsks`` times in
/// all; a rating or "Don't ask again" is final.
public struct RatingSchedule: Codable, Sendable, Equatable {
    /// The starts of the app for this account.
    public private(set) var starts = 0
    /// The starts on which something was done.
    public private(set) var activeStarts = 0
    public private(set) var asked = 0
    /// The start before which it does not ask again.
    public private(set) var notBefore = 0
    public private(set) var paid = false
    /// Rated, or told never to ask.
    public private(set) var isFinal = false

    public static let firstAfter = 5
    public static let againAfter = 10
    public static let maxAsks = 3

    public init() {}

    /// An answer to the prompt.
    public enum Answer: Sendable, Equatable {
        case stars(Int), notNow, never
    }

    /// Counts a start; whether the prompt asks on it.
    public mutating func started() -> Bool {
        starts &+= 1  // a file's figures are input: nothing here traps
        return mayAsk && activeStarts >= Self.firstAfter
    }

    /// Counts the start as one on which something was done (once per start: the caller's part).
    public mutating func acted() { activeStarts &+= 1 }

    /// Notes a payment; whether the prompt asks now (after the first one).
    public mutating func paidOnce() -> Bool {
        guard !paid else { return false }
        paid = true
        return mayAsk
    }

    /// Takes the prompt's answer.
    public mutating func answered(_ answer: Answer) {
        asked &+= 1
        switch answer {
        case .notNow:
            notBefore = starts &+ Self.againAfter
            if asked >= Self.maxAsks { isFinal = true }
        case .stars, .never: isFinal = true
        }
    }

    private var mayAsk: Bool { !isFinal && asked < Self.maxAsks && starts >= notBefore }
}

/// The rating schedules of the accounts of this user, in `$XDG_STATE_HOME/fakenft/rating.json`
/// (over SSH, the folder kept per key): one per server and account, at most ``maxAccounts``.
/// A damaged, foreign or oversized file reads as none.
public struct RatingRecord: Sendable {
    public let fileURL: URL
    /// Which schedule: the server and the account (nil: the shared profile).
    private let key: String
    static let maxAccounts = 100

    public init(fileURL: URL = RatingRecord.defaultURL(), server: String, account: String?) {
        self.fileURL = fileURL
        key = FileName.hashed("\(server)\n\(account ?? "")")
    }

    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StateFolder.url(environment: environment).appendingPathComponent("rating.json")
    }

    public func load() -> RatingSchedule { all()[key] ?? RatingSchedule() }

    /// Keeps `schedule` (a failure only means the prompt may ask again).
    public func save(_ schedule: RatingSchedule) {
        var kept = all()
        kept[key] = schedule
        if kept.count > Self.maxAccounts { kept = kept.filter { $0.key == key } }
        guard let data = try? JSONEncoder().encode(kept) else { return }
        try? FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try? data.write(to: fileURL, options: .atomic)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: fileURL.path)
    }

    private func all() -> [String: RatingSchedule] {
        guard PrivateFile.exposedMode(of: fileURL.path) == nil,
            let data = RegularFile.read(fileURL, maxBytes: 64 * 1024),
            let kept = try? JSONDecoder().decode([String: RatingSchedule].self, from: data)
        else { return [:] }
        return kept
    }
}
