import Foundation

/// One NFT. `author` is a user id (first generation), an author-site URL or a person's name.
public struct NFT: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var images: [String]
    /// 1-5 stars (0 when unknown).
    public var rating: Int
    public var description: String
    /// Price in ETH.
    public var price: Double
    public var author: String
    public var website: String?
    /// Kept as text: the current server adds a `[GMT]` suffix that ISO 8601 parsers reject.
    public var createdAt: String

    public init(
        id: String, name: String, images: [String], rating: Int, description: String, price: Double,
        author: String, website: String? = nil, createdAt: String
    ) {
        self.id = id
        self.name = name
        self.images = images
        self.rating = rating
        self.description = description
        self.price = price
        self.author = author
        self.website = website
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey { case id, name, images, rating, description, price, author, website, createdAt }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.requiredString(.id)
        name = try c.lenientString(.name) ?? ""
        images = (try? c.decode([String].self, forKey: .images)) ?? []
        rating = min(5, max(0, try c.lenientInt(.rating) ?? 0))
        description = try c.lenientString(.description) ?? ""
        price = try c.lenientDouble(.price) ?? 0
        author = try c.lenientString(.author) ?? ""
        website = try c.lenientString(.website)
        createdAt = try c.lenientString(.createdAt) ?? ""
    }
}
