/// How fast strangers come in over SSH (a new key makes an account; a guest, none): an hour's
/// budget per address (`--ssh-new-keys-per-hour`), three times that per network (IPv4 /24, IPv6
/// /64: addresses rotated within a network are one visitor), and ten times that of new accounts
/// in all (0: no limit), as `--sign-ups-per-hour` limits sign-ups over HTTP. Past the budget in
/// all a new key still comes in, as a guest for that visit, so that nobody is turned away because
/// others flooded; its account is made on a later visit. A key seen before is never counted.
final class SSHNewVisitors: Sendable {
    private let perHour: @Sendable () -> Int
    private let perAddress: LoginLimiter
    private let perNetwork: LoginLimiter
    private let accounts: LoginLimiter
    /// What the budget in all is counted under (no address looks like it).
    private static let everyone = "*"

    /// - Parameter perHour: the budget per address now (it may change while the server runs).
    init(perHour: @escaping @Sendable () -> Int) {
        self.perHour = perHour
        perAddress = LoginLimiter(window: .seconds(3600)) { perHour() }
        perNetwork = LoginLimiter(window: .seconds(3600)) { perHour() &* 3 }
        accounts = LoginLimiter(window: .seconds(3600)) { perHour() &* 10 }
    }

    /// How a new visitor comes in.
    enum Admission: Equatable {
        /// As they asked: a new key with an account of its own, or a guest.
        case welcome
        /// A new key, as a guest for this visit: the shop makes no more accounts this hour.
        case guestForNow
        /// Not now (nothing is counted), with the words they read.
        case refused(Refusal)
    }

    /// Counts a new visitor from `address`, who wants an account made (a new key) or not (a
    /// guest), or says why not and when to come back.
    func admit(address: String, wantsAccount: Bool, now: ContinuousClock.Instant = .now) -> Admission {
        guard perHour() > 0 else { return .welcome }
        let counted: LoginLimiter.Attempt
        switch perAddress.attempt([address], now: now) {
        case .success(let attempt): counted = attempt
        case .failure(let limited): return .refused(.address(minutes: limited.minutes))
        }
        if case .failure(let limited) = perNetwork.attempt([Self.network(of: address)], now: now) {
            perAddress.succeeded(counted)  // not counted against the address after all
            return .refused(.network(minutes: limited.minutes))
        }
        guard wantsAccount else { return .welcome }
        if case .failure = accounts.attempt([Self.everyone], now: now) { return .guestForNow }
        return .welcome
    }

    /// The network an address is counted in: its /24 or /64 (loopback's too: visitors reach the
    /// front directly or through a proxy that names them, never from this machine).
    static func network(of address: String) -> String { IPAddressRange.network(of: address, loopbackAsOne: false) }

    /// Why a new visitor was not let in, in the words they read.
    enum Refusal: Equatable {
        case address(minutes: Int), network(minutes: Int)

        var message: String {
            switch self {
            case .address(let minutes):
                """
                Too many new visitors from your address: come back in \(minutes) min, or with a key that \
                has been here before.
                """
            case .network(let minutes):
                """
                Too many new visitors from your network: come back in \(minutes) min, or with a key that \
                has been here before.
                """
            }
        }
    }
}

extension Limited {
    /// The wait in whole minutes, rounded up (``seconds`` is a second over it), at least one.
    fileprivate var minutes: Int { max(1, (seconds + 58) / 60) }
}
