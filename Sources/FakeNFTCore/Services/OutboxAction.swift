/// One action of the user's on the likes or the cart (one press, or a batch of marked NFTs): the
/// changes it makes to one list, and where it stands against the server. The app's outbox is a
/// log of them; those kept for the server are written down (``KeptChanges``).
public struct OutboxAction: Codable, Sendable, Equatable {
    /// The lists an action changes.
    public enum List: String, Codable, Sendable, CaseIterable {
        case likes, cart
    }

    /// One NFT added to the list or taken out of it.
    public struct Change: Codable, Sendable, Equatable {
        public var id: String
        /// The NFT's name when the change was made, for what is said of it.
        public var name: String
        public var adding: Bool

        public init(id: String, name: String, adding: Bool) {
            self.id = id
            self.name = name
            self.adding = adding
        }

        /// The change that takes this one back.
        public var reversed: Change { Change(id: id, name: name, adding: !adding) }
    }

    /// Where an action stands against the server.
    public enum State: Codable, Sendable, Equatable {
        /// Shown, not sent yet (it waits for the request before it).
        case shown
        /// On its way to the server.
        case sending
        /// The server could not be reached: shown, written down, sent once it can be.
        case kept
        /// The server has it.
        case confirmed
        /// The server refused it, for this reason: no longer shown.
        case refused(String)

        /// Whether the list shown has it on top of the server's.
        public var isPending: Bool {
            switch self {
            case .shown, .sending, .kept: true
            case .confirmed, .refused: false
            }
        }
    }

    public var list: List
    public var changes: [Change]
    public var state: State
    /// An undo's own action: `u` never takes it back.
    public var isUndoing: Bool

    public init(list: List, changes: [Change], state: State = .shown, isUndoing: Bool = false) {
        self.list = list
        self.changes = changes
        self.state = state
        self.isUndoing = isUndoing
    }

    /// `ids` with `actions`' changes made in turn: an id whose last change adds it is there once
    /// (where it was, or after the others), one whose last change takes it out is not.
    public static func applying(_ actions: some Sequence<OutboxAction>, to ids: [String]) -> [String] {
        var wanted: [String: Bool] = [:]
        var added: [String] = []
        for change in actions.lazy.flatMap(\.changes) {
            wanted[change.id] = change.adding
            if change.adding { added.append(change.id) }
        }
        guard !wanted.isEmpty else { return ids }
        var result = ids.filter { wanted[$0] ?? true }
        var present = Set(result)
        for id in added where wanted[id] == true && present.insert(id).inserted { result.append(id) }
        return result
    }
}
