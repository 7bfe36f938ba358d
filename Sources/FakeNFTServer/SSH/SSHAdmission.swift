import Synchronization

/// How many SSH sessions run at once: in all, per key and per address, each within its limit.
final class SSHAdmission: Sendable {
    /// Why a session was not let in, in the words the visitor reads.
    enum Refusal: Error, Equatable {
        case full, key, address

        var message: String {
            switch self {
            case .full: "The shop is full: please come back in a few minutes."
            case .key: "This key has as many sessions open as it may: close one first."
            case .address: "Your address has as many sessions open as it may: close one first."
            }
        }
    }

    /// A session let in: given back when it ends.
    struct Ticket: Sendable, Hashable {
        let key: String
        let address: String
    }

    private struct Counts {
        var all = 0
        var byKey: [String: Int] = [:]
        var byAddress: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())
    /// The limits now.
    private let limits: @Sendable () -> SSHLimits

    init(limits: @escaping @Sendable () -> SSHLimits) {
        self.limits = limits
    }

    /// Lets a session of `key` from `address` in, or says why not. A limit lowered while more
    /// sessions run lets none in until they are fewer; none running is ended.
    func admit(key: String, address: String) -> Result<Ticket, Refusal> {
        let limits = limits()
        return counts.withLock { counts in
            if counts.all >= limits.maxSessions { return .failure(.full) }
            if counts.byKey[key, default: 0] >= limits.maxSessionsPerVisitor { return .failure(.key) }
            if counts.byAddress[address, default: 0] >= limits.maxSessionsPerVisitor { return .failure(.address) }
            counts.all += 1
            counts.byKey[key, default: 0] += 1
            counts.byAddress[address, default: 0] += 1
            return .success(Ticket(key: key, address: address))
        }
    }

    /// The session of `ticket` has ended.
    func release(_ ticket: Ticket) {
        counts.withLock { counts in
            counts.all -= 1
            counts.byKey[ticket.key, default: 1] -= 1
            if counts.byKey[ticket.key] == 0 { counts.byKey[ticket.key] = nil }
            counts.byAddress[ticket.address, default: 1] -= 1
            if counts.byAddress[ticket.address] == 0 { counts.byAddress[ticket.address] = nil }
        }
    }

    /// Sessions running now.
    var running: Int { counts.withLock { $0.all } }
}
