/// How fast strangers come in over SSH (a new key makes an account; a guest, none): per address
/// and in all, each an hour's budget (`--ssh-new-keys-per-hour` per address, ten times that in
/// all; 0: no limit), as `--sign-ups-per-hour` limits sign-ups over HTTP. A key seen before is
/// never counted.
final class SSHNewVisitors: Sendable {
    private let perAddress: LoginLimiter?
    private let inAll: LoginLimiter?
    /// What the budget in all is counted under (no address looks like it).
    private static let everyone = "*"

    init(perHour: Int) {
        perAddress = perHour > 0 ? LoginLimiter(maxAttempts: perHour, window: .seconds(3600)) : nil
        inAll = perHour > 0 ? LoginLimiter(maxAttempts: perHour * 10, window: .seconds(3600)) : nil
    }

    /// Counts a new visitor from `address` (nil), or says why not and when to come back:
    /// nothing is counted then.
    func admit(address: String, now: ContinuousClock.Instant = .now) -> Refusal? {
        guard let perAddress, let inAll else { return nil }
        let counted: LoginLimiter.Attempt
        switch perAddress.attempt([address], now: now) {
        case .success(let attempt): counted = attempt
        case .failure(let limited): return .address(minutes: limited.minutes)
        }
        if case .failure(let limited) = inAll.attempt([Self.everyone], now: now) {
            perAddress.succeeded(counted)  // not counted against the address after all
            return .everyone(minutes: limited.minutes)
        }
        return nil
    }

    /// Why a new visitor was not let in, in the words they read.
    enum Refusal: Equatable {
        case address(minutes: Int), everyone(minutes: Int)

        var message: String {
            switch self {
            case .address(let minutes):
                """
                Too many new visitors from your address: come back in \(minutes) min, or with a key that \
                has been here before.
                """
            case .everyone(let minutes):
                "The shop takes no more new visitors for now: come back in \(minutes) min."
            }
        }
    }
}

extension Limited {
    /// The wait in whole minutes, rounded up (``seconds`` is a second over it), at least one.
    fileprivate var minutes: Int { max(1, (seconds + 58) / 60) }
}
