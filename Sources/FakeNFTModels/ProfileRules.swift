import Foundation

/// What a profile's fields may hold, on both sides: the server refuses an edit that breaks a
/// rule, and the app's form shows the same rule beside the field. Bounded lengths keep a
/// profile small enough to edit and show at once; no control characters means nothing in a
/// profile can reach another user's terminal as an escape sequence.
public enum ProfileRules {
    public static let maxName = AccountRules.maxName
    public static let maxDescription = 500
    /// The longest website or avatar address.
    public static let maxLink = 2048

    /// What is wrong with a field.
    public enum Problem: Sendable, Equatable {
        case nameEmpty, tooLong(Int), hasControls, linkInvalid
    }

    /// The first broken rule in `update`: the field's name and what is wrong with it.
    public static func problem(in update: ProfileUpdate) -> (field: String, problem: Problem)? {
        if let name = update.name, let problem = nameProblem(name) { return ("name", problem) }
        if let description = update.description, let problem = descriptionProblem(description) {
            return ("description", problem)
        }
        if let website = update.website, let problem = linkProblem(website) { return ("website", problem) }
        if let avatar = update.avatar, let problem = linkProblem(avatar) { return ("avatar", problem) }
        return nil
    }

    /// 1 to 100 characters (trimmed), without control characters.
    public static func nameProblem(_ name: String) -> Problem? {
        switch AccountRules.nameProblem(name) {
        case .nameEmpty: .nameEmpty
        case .nameTooLong: .tooLong(maxName)
        case .nameHasControls: .hasControls
        default: nil
        }
    }

    /// At most 500 characters; line breaks and tabs are the only control characters it may hold.
    public static func descriptionProblem(_ description: String) -> Problem? {
        if description.count > maxDescription { return .tooLong(maxDescription) }
        if description.unicodeScalars.contains(where: {
            !["\n", "\r", "\t"].contains($0) && AccountRules.isControl($0)
        }) {
            return .hasControls
        }
        return nil
    }

    /// Empty, or an http(s) address with a host of at most 2048 characters, without spaces or
    /// control characters.
    public static func linkProblem(_ link: String) -> Problem? {
        if link.isEmpty { return nil }
        // Bytes first: a form checks its link on every key, and 2,000 characters of ASCII are
        // counted and scanned without decoding a character.
        if link.utf8.count > maxLink, link.count > maxLink { return .tooLong(maxLink) }
        let ascii = link.utf8.allSatisfy { $0 < 0x80 }
        if ascii
            ? link.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F })
            : link.unicodeScalars.contains(where: { AccountRules.isControl($0) || $0.properties.isWhitespace })
        {
            return .hasControls
        }
        guard let url = URL(string: link), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            !(url.host ?? "").isEmpty
        else { return .linkInvalid }
        return nil
    }
}
