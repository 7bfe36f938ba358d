import Foundation

/// Another user, as listed in the statistics. `rating` travels as a string.
public struct User: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var avatar: String
    public var description: String?
    public var website: String
    public var nfts: [String]
    public var rating: String

    public init(
        id: String, name: String, avatar: String, description: String?, website: String, nfts: [String], rating: String
    ) {
        self.id = id
        self.name = name
        self.avatar = avatar
        self.description = description
        self.website = website
        self.nfts = nfts
        self.rating = rating
    }

    /// The rating as a number (0 when it is not one).
    public var ratingValue: Int { Int(rating.trimmingCharacters(in: .whitespaces)) ?? 0 }

    enum CodingKeys: String, CodingKey { case id, name, avatar, description, website, nfts, rating }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.requiredString(.id)
        name = try c.lenientString(.name) ?? ""
        avatar = try c.lenientString(.avatar) ?? ""
        description = try c.lenientString(.description)
        website = try c.lenientString(.website) ?? ""
        nfts = try c.idList(.nfts)
        rating = try c.lenientString(.rating) ?? "0"
    }
}
