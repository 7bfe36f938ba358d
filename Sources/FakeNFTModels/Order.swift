import Foundation

/// The cart: NFT ids waiting to be paid for.
public struct Order: Codable, Sendable, Hashable {
    public var id: String
    public var nfts: [String]

    public init(id: String = "1", nfts: [String]) {
        self.id = id
        self.nfts = nfts
    }

    enum CodingKeys: String, CodingKey { case id, nfts }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.lenientString(.id) ?? "1"
        nfts = try c.idList(.nfts)
    }
}
