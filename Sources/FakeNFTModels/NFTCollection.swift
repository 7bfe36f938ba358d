import Foundation

/// A collection of NFTs.
public struct NFTCollection: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var cover: String
    public var nfts: [String]
    public var description: String
    public var author: String
    public var website: String?
    public var createdAt: String

    public init(
        id: String, name: String, cover: String, nfts: [String], description: String, author: String,
        website: String? = nil, createdAt: String
    ) {
        self.id = id
        self.name = name
        self.cover = cover
        self.nfts = nfts
        self.description = description
        self.author = author
        self.website = website
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey { case id, name, cover, nfts, description, author, website, createdAt }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.requiredString(.id)
        name = try c.lenientString(.name) ?? ""
        cover = try c.lenientString(.cover) ?? ""
        nfts = try c.idList(.nfts)
        description = try c.lenientString(.description) ?? ""
        author = try c.lenientString(.author) ?? ""
        website = try c.lenientString(.website)
        createdAt = try c.lenientString(.createdAt) ?? ""
    }
}
