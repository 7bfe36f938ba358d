import Foundation

/// A paid order as the server keeps it (the accounts extension's `/auth/orders`): when, which
/// NFTs at which price (ETH, as they were then), their total and the currency paid with.
public struct PaidOrder: Codable, Sendable, Hashable, Identifiable {
    /// One NFT of the order and its price then.
    public struct Item: Codable, Sendable, Hashable {
        public var nft: String
        public var price: Double

        public init(nft: String, price: Double) {
            self.nft = nft
            self.price = price
        }

        enum CodingKeys: String, CodingKey { case nft, price }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            nft = try c.requiredString(.nft)
            price = try c.lenientDouble(.price) ?? 0
        }
    }

    public var id: String
    /// ISO 8601, as the server wrote it.
    public var paidAt: String
    public var currencyId: String
    /// The currency's short name then (`BTC`).
    public var currencyName: String
    public var items: [Item]
    /// ETH.
    public var total: Double

    public init(id: String, paidAt: String, currencyId: String, currencyName: String, items: [Item], total: Double) {
        self.id = id
        self.paidAt = paidAt
        self.currencyId = currencyId
        self.currencyName = currencyName
        self.items = items
        self.total = total
    }

    enum CodingKeys: String, CodingKey { case id, paidAt, currencyId, currencyName, items, total }

    /// Hostile numbers (NaN, infinities) are refused by ``lenientDouble``; a missing list is empty.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.requiredString(.id)
        paidAt = try c.lenientString(.paidAt) ?? ""
        currencyId = try c.lenientString(.currencyId) ?? ""
        currencyName = try c.lenientString(.currencyName) ?? ""
        items = try c.decodeIfPresent([Item].self, forKey: .items) ?? []
        total = try c.lenientDouble(.total) ?? 0
    }
}
