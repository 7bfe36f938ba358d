import Foundation
import Synchronization

/// Attempts counted per key (an address, a client) over a sliding window: after ``maxAttempts``
/// within ``window`` the key must wait until the oldest attempt leaves it. The maximum is read at
/// each attempt (it may change while the server runs).
///
/// An attempt is counted when it starts, before its (slow) check, in the same step as the check
/// of the limit: attempts made at the same time cannot all pass the check before any of them is
/// counted. A successful one is taken back (``succeeded(_:)``).
final class LoginLimiter: Sendable {
    private let maximum: @Sendable () -> Int
    let window: Duration
    private let failures = Mutex<[String: [ContinuousClock.Instant]]>([:])
    /// Keys kept at most: beyond that the oldest-looking are forgotten (a flood of addresses
    /// cannot fill memory).
    static let maxKeys = 100_000

    convenience init(maxAttempts: Int = 5, window: Duration = .seconds(15 * 60)) {
        self.init(window: window) { maxAttempts }
    }

    init(window: Duration, maxAttempts: @escaping @Sendable () -> Int) {
        self.maximum = maxAttempts
        self.window = window
    }

    /// The attempts a key may make within ``window`` now.
    var maxAttempts: Int { maximum() }

    /// One attempt counted against keys, as ``attempt(_:now:)`` made it.
    struct Attempt: Sendable {
        let keys: [String]
        let at: ContinuousClock.Instant
    }

    /// Counts an attempt against each of `keys`, unless one of them has used its attempts:
    /// then nothing is counted and `.failure` holds the seconds until it may try again.
    func attempt(_ keys: [String], now: ContinuousClock.Instant = .now) -> Result<Attempt, Limited> {
        let maxAttempts = maxAttempts
        return failures.withLock { failures in
            let waits = keys.compactMap { key -> Duration? in
                let recent = (failures[key] ?? []).filter { now - $0 < window }
                failures[key] = recent.isEmpty ? nil : recent
                guard recent.count >= maxAttempts, let oldest = recent.first else { return nil }
                return window - (now - oldest)
            }
            if let wait = waits.max() { return .failure(Limited(seconds: max(1, Int(wait.components.seconds) + 1))) }
            count(keys, now, in: &failures)
            return .success(Attempt(keys: keys, at: now))
        }
    }

    /// Counts a failure against each of `keys` (a probe that is not an attempt of its own).
    func fail(_ keys: [String], now: ContinuousClock.Instant = .now) {
        failures.withLock { count(keys, now, in: &$0) }
    }

    /// Takes back a successful attempt; the failures of `forgetting` (the address signed in
    /// with) are forgotten as well.
    func succeeded(_ attempt: Attempt, forgetting key: String? = nil) {
        failures.withLock { failures in
            for key in attempt.keys {
                guard var times = failures[key], let index = times.lastIndex(of: attempt.at) else { continue }
                times.remove(at: index)
                failures[key] = times.isEmpty ? nil : times
            }
            if let key { failures[key] = nil }
        }
    }

    private func count(
        _ keys: [String], _ now: ContinuousClock.Instant, in failures: inout [String: [ContinuousClock.Instant]]
    ) {
        if failures.count > Self.maxKeys {  // forget what has expired; if that is not enough, everything
            failures = failures.filter { _, times in times.contains { now - $0 < window } }
            if failures.count > Self.maxKeys { failures.removeAll() }
        }
        for key in keys { failures[key, default: []].append(now) }
    }
}

/// A key that has used its attempts, and the seconds until it may try again.
struct Limited: Error, Sendable {
    let seconds: Int
}

/// The server's limits on accounts: sign-in attempts per address and per client, sign-ups per
/// client's network (none when not set: `--sign-ups-per-hour 0`).
///
/// A client that signed in to an address before is counted apart from everyone else's guesses
/// at that address: strangers' wrong guesses never lock its owner out.
final class AccountLimits: Sendable {
    let signIns: LoginLimiter
    /// Sign-ups per client's network an hour; none counted while the limit is 0.
    private let signUps: LoginLimiter
    private let signUpsPerHour: @Sendable () -> Int
    /// "address key|client key" of each sign-in that succeeded (a bounded memory of who is who).
    private let signedInBefore = Mutex<Set<String>>([])
    static let maxRemembered = 100_000

    /// - Parameter signUpsPerHour: the limit now (0: none; it may change while the server runs).
    init(signUpsPerHour: @escaping @Sendable () -> Int) {
        signIns = LoginLimiter()
        self.signUpsPerHour = signUpsPerHour
        signUps = LoginLimiter(window: .seconds(3600), maxAttempts: signUpsPerHour)
    }

    /// Counts a sign-up from `network`, unless its network has made as many as it may this hour
    /// (then `.failure` says when it may again); nil when sign-ups are not limited.
    func signUp(from network: String) -> Result<LoginLimiter.Attempt, Limited>? {
        signUpsPerHour() > 0 ? signUps.attempt([network]) : nil
    }

    /// What a sign-in to `address` (its key) from `client` is counted against: the address and
    /// the client; for a client that signed in to it before, its own attempts at it alone.
    func signInKeys(address: String, client: String) -> [String] {
        let pair = address + "|" + client
        return signedInBefore.withLock { $0.contains(pair) } ? [pair, client] : [address, client]
    }

    /// Remembers that `client` signed in to `address`.
    func signedIn(address: String, client: String) {
        signedInBefore.withLock { pairs in
            if pairs.count >= Self.maxRemembered { pairs.removeAll() }
            pairs.insert(address + "|" + client)
        }
    }
}
