import Foundation

/// The fields of a profile edit; nil means "unchanged" and is not sent.
public struct ProfileUpdate: Sendable, Hashable {
    public var name: String?
    public var description: String?
    public var website: String?
    public var avatar: String?
    public var likes: [String]?

    public init(
        name: String? = nil, description: String? = nil, website: String? = nil, avatar: String? = nil,
        likes: [String]? = nil
    ) {
        self.name = name
        self.description = description
        self.website = website
        self.avatar = avatar
        self.likes = likes
    }

    /// The fields of `edited` that differ from `original`.
    public static func changes(from original: Profile, to edited: Profile) -> ProfileUpdate {
        ProfileUpdate(
            name: edited.name == original.name ? nil : edited.name,
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
