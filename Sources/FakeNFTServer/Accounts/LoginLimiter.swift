import Foundation
import Synchronization

/// Failed sign-ins counted per key (an address, a client) over a sliding window: after
/// ``maxFailures`` within ``window`` the key must wait until the oldest failure leaves it.
final class LoginLimiter: Sendable {
    let maxFailures: Int
    let window: Duration
    private let failures = Mutex<[String: [ContinuousClock.Instant]]>([:])
    /// Keys kept at most: beyond that the oldest-looking are forgotten (a flood of addresses
    /// cannot fill memory).
    static let maxKeys = 100_000

    init(maxFailures: Int = 5, window: Duration = .seconds(15 * 60)) {
        self.maxFailures = maxFailures
        self.window = window
    }

    /// Seconds until one of `keys` may try again; nil when all may.
    func retryAfter(_ keys: [String], now: ContinuousClock.Instant = .now) -> Int? {
        failures.withLock { failures in
            let waits = keys.compactMap { key -> Duration? in
                let recent = (failures[key] ?? []).filter { now - $0 < window }
                failures[key] = recent.isEmpty ? nil : recent
                guard recent.count >= maxFailures, let oldest = recent.first else { return nil }
                return window - (now - oldest)
            }
            return waits.max().map { max(1, Int(($0.components.seconds)) + 1) }
        }
    }

    /// Counts a failure against each of `keys`.
    func fail(_ keys: [String], now: ContinuousClock.Instant = .now) {
        failures.withLock { failures in
            if failures.count > Self.maxKeys {  // forget what has expired; if that is not enough, everything
                failures = failures.filter { _, times in times.contains { now - $0 < window } }
                if failures.count > Self.maxKeys { failures.removeAll() }
            }
            for key in keys { failures[key, default: []].append(now) }
        }
    }

    /// Forgets the failures of `key` (after a successful sign-in with that address).
    func clear(_ key: String) { _ = failures.withLock { $0.removeValue(forKey: key) } }
}
