import Foundation

/// A currency one can pay with. `title` is the full name, `name` the ticker.
public struct Currency: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var title: String
    public var name: String
    public var image: String

    public init(id: String, title: String, name: String, image: String) {
        self.id = id
        self.title = title
        self.name = name
        self.image = image
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
