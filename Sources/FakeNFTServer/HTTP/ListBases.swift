import Synchronization

/// What each client last read or wrote of a list (an owner's likes or cart), so that a change it
/// sends without `If-Match` can be merged (``ServerConfiguration/ListWrites/merge``): its ids
/// added and removed since then, applied to the list as it is now. Kept in memory, for the
/// most recent ``capacity`` clients and lists; a client not remembered replaces the list.
final class ListBases: Sendable {
    enum Field: String, Sendable { case likes, cart }

    static let capacity = 10_000
    private struct Entry {
        var list: [String]
        var stamp: Int
    }
    private let state = Mutex<(entries: [String: Entry], stamp: Int)>(([:], 0))

    func remember(_ list: [String], _ field: Field, owner: String, client: String) {
        state.withLock { state in
            state.stamp += 1
            state.entries[Self.key(field, owner, client)] = Entry(list: list, stamp: state.stamp)
            if state.entries.count > Self.capacity {  // the older half goes
                let cut = state.stamp - Self.capacity / 2
                state.entries = state.entries.filter { $0.value.stamp > cut }
            }
        }
    }

    func base(_ field: Field, owner: String, client: String) -> [String]? {
        state.withLock { $0.entries[Self.key(field, owner, client)]?.list }
    }

    private static func key(_ field: Field, _ owner: String, _ client: String) -> String {
        "\(field.rawValue)\u{0}\(owner)\u{0}\(client)"
    }
}
