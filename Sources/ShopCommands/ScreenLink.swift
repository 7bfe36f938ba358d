/// A screen of the app one can be pointed at (`fakenft nft 42` on a terminal, `ssh -t host nft
/// 42`, `fakenft --open nft/42`): an NFT, a collection, a user, the cart or the paid orders.
public enum ScreenLink: Sendable, Equatable {
    case nft(String), collection(String), user(String), cart, orders

    /// A link as `text` says it (`nft/42`, `cart`); nil for anything else, an id of more than 64
    /// characters or other than letters, digits, `-`, `_` and `.` among them.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("cart", 1): self = .cart
        case ("orders", 1): self = .orders
        case ("nft", 2), ("collection", 2), ("user", 2):
            let id = parts[1]
            guard !id.isEmpty, id.count <= 64, id.unicodeScalars.allSatisfy(Self.isIDCharacter) else { return nil }
            self = parts[0] == "nft" ? .nft(id) : parts[0] == "collection" ? .collection(id) : .user(id)
        default: return nil
        }
    }

    /// The link as text, as ``init(_:)`` reads it.
    public var text: String {
        switch self {
        case .nft(let id): "nft/" + id
        case .collection(let id): "collection/" + id
        case .user(let id): "user/" + id
        case .cart: "cart"
        case .orders: "orders"
        }
    }

    private static func isIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
    }
}
