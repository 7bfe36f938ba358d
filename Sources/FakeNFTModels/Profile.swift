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

    public init(id: String, name: String, avatar: String, description: String, website: String, nfts: [String], likes: [String]) {
        self.id = id; self.name = name; self.avatar = avatar; self.description = description
        self.website = website; self.nfts = nfts; self.likes = likes
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

/// The fields of a profile edit; nil means "unchanged" and is not sent.
public struct ProfileUpdate: Sendable, Hashable {
    public var name: String?
    public var description: String?
    public var website: String?
    public var avatar: String?
    public var likes: [String]?

    public init(name: String? = nil, description: String? = nil, website: String? = nil, avatar: String? = nil, likes: [String]? = nil) {
        self.name = name; self.description = description; self.website = website; self.avatar = avatar; self.likes = likes
    }

    /// The fields of `edited` that differ from `original`.
    public static func changes(from original: Profile, to edited: Profile) -> ProfileUpdate {
        ProfileUpdate(name: edited.name == original.name ? nil : edited.name,
                      description: edited.description == original.description ? nil : edited.description,
                      website: edited.website == original.website ? nil : edited.website,
                      avatar: edited.avatar == original.avatar ? nil : edited.avatar,
                      likes: edited.likes == original.likes ? nil : edited.likes)
    }

    public var isEmpty: Bool { name == nil && description == nil && website == nil && avatar == nil && likes == nil }

    /// Form fields, in a stable order.
    public var formFields: [(String, String)] {
        var fields: [(String, String)] = []
        if let name { fields.append(("name", name)) }
        if let description { fields.append(("description", description)) }
        if let website { fields.append(("website", website)) }
        if let avatar { fields.append(("avatar", avatar)) }
        if let likes { fields.append(("likes", IDList.formValue(likes))) }
        return fields
    }
}

/// The cart: NFT ids waiting to be paid for.
public struct Order: Codable, Sendable, Hashable {
    public var id: String
    public var nfts: [String]

    public init(id: String = "1", nfts: [String]) { self.id = id; self.nfts = nfts }

    enum CodingKeys: String, CodingKey { case id, nfts }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.lenientString(.id) ?? "1"
        nfts = try c.idList(.nfts)
    }
}

/// A currency one can pay with. `title` is the full name, `name` the ticker.
public struct Currency: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var title: String
    public var name: String
    public var image: String

    public init(id: String, title: String, name: String, image: String) {
        self.id = id; self.title = title; self.name = name; self.image = image
    }

    enum CodingKeys: String, CodingKey { case id, title, name, image }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.requiredString(.id)
        // The spec's example has stray trailing commas ("Bitcoin,").
        let clean: (String?) -> String = { ($0 ?? "").trimmingCharacters(in: CharacterSet(charactersIn: ", ")) }
        title = clean(try c.lenientString(.title)).replacingOccurrences(of: "_", with: " ")
        name = clean(try c.lenientString(.name))
        image = try c.lenientString(.image) ?? ""
    }
}

/// Another user, as listed in the statistics. `rating` travels as a string.
public struct User: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var avatar: String
    public var description: String?
    public var website: String
    public var nfts: [String]
    public var rating: String

    public init(id: String, name: String, avatar: String, description: String?, website: String, nfts: [String], rating: String) {
        self.id = id; self.name = name; self.avatar = avatar; self.description = description
        self.website = website; self.nfts = nfts; self.rating = rating
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

/// The answer to a payment.
public struct PaymentResult: Codable, Sendable, Hashable {
    public var success: Bool
    public var orderId: String
    /// The currency id.
    public var id: String

    public init(success: Bool, orderId: String, id: String) { self.success = success; self.orderId = orderId; self.id = id }

    enum CodingKeys: String, CodingKey { case success, orderId, id }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let b = try? c.decode(Bool.self, forKey: .success) { success = b }
        else { success = (try c.lenientString(.success)).map { $0 == "true" || $0 == "1" } ?? false }
        orderId = try c.lenientString(.orderId) ?? "1"
        id = try c.lenientString(.id) ?? ""
    }
}
