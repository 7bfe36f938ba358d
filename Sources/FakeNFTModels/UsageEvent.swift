/// One usage event, Metrica's model (a screen opened or closed, an action pressed), as the app
/// reports it to its own server (`POST /api/v1/usage`): names from closed lists and an item's id,
/// nothing that names a person: no account, token, address, typed text or free text.
public struct UsageEvent: Codable, Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case open, close, click
        /// The rate-the-app prompt answered with ``UsageEvent/stars``.
        case rate
    }

    /// Where: each screen, dialog and panel the app reports.
    public enum Screen: String, Codable, Sendable, CaseIterable {
        case catalog, collection, nft, reader, cart, payment, success, profile, edit, about
        case myNFTs = "my-nfts"
        case favorites, orders, order, statistics, user
        /// Profile's list of the account's SSH keys.
        case keys
        case userCollection = "user-collection"
        case help
        case goTo = "go-to"
        case palette
        /// The rate-the-app prompt.
        case rating
    }

    /// Which action a `click` is.
    public enum Action: String, Codable, Sendable, CaseIterable {
        case like, unlike
        case cartAdd = "cart-add"
        case cartRemove = "cart-remove"
        case pay, sort, search, mark, undo
        case goTo = "go-to"
        case paletteCommand = "palette-command"
        /// The rate-the-app prompt's "Not now" and "Don't ask again".
        case notNow = "not-now"
        case never
    }

    public var event: Kind
    public var screen: Screen
    /// A click's action (only a click has one).
    public var action: Action?
    /// The id of the NFT, collection, user or order the event is about, where there is one.
    public var item: String?
    /// A `rate` event's stars, 1 to 5.
    public var stars: Int?

    public init(_ event: Kind, _ screen: Screen, action: Action? = nil, item: String? = nil, stars: Int? = nil) {
        self.event = event
        self.screen = screen
        self.action = action
        self.item = item
        self.stars = stars
    }

    /// The longest item id accepted.
    public static let maxItemLength = 64

    /// Why the event is not one the app sends, if it is not: a click without its action, an
    /// action or stars where none belongs, an item that is no plain id.
    public var problem: String? {
        if (event == .click) != (action != nil) { return "a click, and only a click, names its action" }
        if (event == .rate) != (stars != nil) { return "a rate, and only a rate, gives stars" }
        if let stars, !(1...5).contains(stars) { return "stars are 1 to 5" }
        if event == .rate && screen != .rating { return "a rate is on the rating screen" }
        if let item, !Self.isPlainID(item) {
            return "an item is an id: letters, digits, - and _, at most \(Self.maxItemLength)"
        }
        return nil
    }

    /// ASCII letters, digits, `-` and `_`, 1 to ``maxItemLength`` of them: the catalog's ids.
    public static func isPlainID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxItemLength
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x2D || byte == 0x5F
            }
    }
}

/// What `POST /api/v1/usage` takes: at most ``maxEvents`` events.
public struct UsageBatch: Codable, Sendable, Equatable {
    public var events: [UsageEvent]
    public init(events: [UsageEvent]) { self.events = events }
    /// The most events one batch may carry.
    public static let maxEvents = 100
}
