import Synchronization

/// What each client last read or wrote of a list (an owner's likes or cart), so that a change it
/// sends without `If-Match` can be merged (``ServerConfiguration/ListWrites/merge``): its ids
/// added and removed since then, applied to the list as it is now. Clients are told apart by
/// their address and `User-Agent`; identical clients behind one address (two simulators behind
/// a NAT) cannot be, so the last ``listsPerClient`` lists of each are kept, and a change is
/// taken as made on the one that explains it best (a client sends the list it saw with its own
/// change to it). Kept in memory, for the most recent ``capacity`` clients and lists; a client
/// not remembered replaces the list.
final class ListBases: Sendable {
    enum Field: String, Sendable { case likes, cart }

    static let capacity = 10_000
    /// Lists kept per client and list: as many identical clients behind one address as that are
    /// told apart.
    static let listsPerClient = 8
    private struct Entry {
        /// Oldest first.
        var lists: [[String]]
        var stamp: Int
    }
    private let state = Mutex<(entries: [String: Entry], stamp: Int)>(([:], 0))

    func remember(_ list: [String], _ field: Field, owner: String, client: String) {
        state.withLock { state in
            state.stamp += 1
            let key = Self.key(field, owner, client)
            var lists = (state.entries[key]?.lists ?? []).filter { $0 != list }
            lists.append(list)
            state.entries[key] = Entry(lists: Array(lists.suffix(Self.listsPerClient)), stamp: state.stamp)
            if state.entries.count > Self.capacity {  // the older half goes
                let cut = state.stamp - Self.capacity / 2
                state.entries = state.entries.filter { $0.value.stamp > cut }
            }
        }
    }

    /// The list the client most likely made `sent` from, of those it read or sent lately: the
    /// latest that `sent` changes by one id at most (a toggle, or nothing), else the one it
    /// differs least from (the latest of equals).
    func base(_ field: Field, owner: String, client: String, sent: [String]) -> [String]? {
        guard let lists = state.withLock({ $0.entries[Self.key(field, owner, client)]?.lists }) else { return nil }
        let wanted = Set(sent)
        let distances = lists.reversed().map { ($0, Set($0).symmetricDifference(wanted).count) }
        return (distances.first { $0.1 <= 1 } ?? distances.min { $0.1 < $1.1 })?.0
    }

    private static func key(_ field: Field, _ owner: String, _ client: String) -> String {
        "\(field.rawValue)\u{0}\(owner)\u{0}\(client)"
    }
}
