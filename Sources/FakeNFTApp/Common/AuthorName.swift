import Localization
import FakeNFTCore
import Foundation

/// Who made an NFT or a collection: the API gives a user id (first generation), a site URL or
/// a person's name. This turns any of them into a name and, where known, a web page.
struct AuthorName: Equatable {
    var name: String
    var website: String?

    /// A name for any form of `raw`; a user id shows "…" until ``resolved(_:website:users:)``.
    init(_ raw: String, website: String? = nil) {
        if Self.isUserID(raw) {
            name = "…"
            self.website = website
        } else if let url = URL(string: raw), let host = url.host, url.scheme?.hasPrefix("http") == true {
            name =
                host.split(separator: ".").first.map { $0.replacingOccurrences(of: "_", with: " ").capitalized } ?? host
            self.website = raw
        } else {
            name = raw.isEmpty ? tr(.unknown) : raw
            self.website = website
        }
    }

    private init(name: String, website: String?) {
        self.name = name
        self.website = website
    }

    /// True when `raw` is a user id the server can name.
    static func isUserID(_ raw: String) -> Bool { Int(raw) != nil }

    /// The author named: a user id becomes the user's name and site (when the server knows them).
    static func resolved(_ raw: String, website: String? = nil, users: UserService) async -> AuthorName {
        guard isUserID(raw) else { return AuthorName(raw, website: website) }
        guard let user = try? await users.user(id: raw) else {
            return AuthorName(name: tr(.userNumber, raw), website: website)
        }
        return AuthorName(name: user.name, website: user.website.isEmpty ? website : user.website)
    }

    /// Names for many authors at once (one request per distinct user id, in parallel).
    static func resolveAll(_ raws: Set<String>, users: UserService) async -> [String: AuthorName] {
        await withTaskGroup(of: (String, AuthorName).self) { group in
            for raw in raws { group.addTask { (raw, await resolved(raw, users: users)) } }
            var names: [String: AuthorName] = [:]
            for await (raw, name) in group { names[raw] = name }
            return names
        }
    }
}
