import Foundation

/// The user's own profile: the NFTs they own and the ones they liked.
public struct Profile: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var avatar: String
    public var description: String
    public var website: String
    public var nfts: [String]
    public var likes: [String]

    public init(
        id: String, name: String, avatar: String, description: String, website: String, nfts: [String], likes: [String]
    ) {
        self.id = id
        self.name = name
        self.avatar = avatar
        self.description = description
        self.website = website
        self.nfts = nfts
        self.likes = likes
    }

    enum CodingKeys: String, CodingKey { case id, name, avatar, description, website, nfts, likes }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.lenientString(.id) ?? "1"
        name = try c.lenientString(.name) ?? ""
        avatar = try c.lenientString(.avatar) ?? ""
        description = try c.lenientString(.description) ?? ""
        website = try c.lenientString(.website) ?? ""
        nfts = try c.idList(.nfts)
        likes = try c.idList(.likes)
    }
}
