import Foundation

/// The rules for what a sign-up sends. Each check answers the message the client gets, or nil.
enum Credentials {
    static let maxName = 100
    static let maxEmail = 254
    static let minPassword = 8
    /// bcrypt reads at most 72 bytes: a longer password would be cut without a word.
    static let maxPasswordBytes = 72

    /// A name of 1 to 100 characters (trimmed), without control characters.
    static func nameProblem(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "name must not be empty" }
        if trimmed.count > maxName { return "name must be at most \(maxName) characters" }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "name must not hold control characters" }
        return nil
    }

    /// An address with one `@`, something before it and a dotted domain after it, at most 254
    /// characters, without spaces or control characters.
    static func emailProblem(_ email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= maxEmail, parts.count == 2, !parts[0].isEmpty,
              parts[1].split(separator: ".", omittingEmptySubsequences: false).count >= 2,
              !parts[1].split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty),
              !email.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control })
        else { return "email is not a valid e-mail address" }
        return nil
    }

    /// At least 8 characters with a letter and something that is not a letter, at most 72 bytes.
    static func passwordProblem(_ password: String) -> String? {
        if password.count < minPassword { return "password must be at least \(minPassword) characters" }
        if password.utf8.count > maxPasswordBytes { return "password must be at most \(maxPasswordBytes) bytes" }
        if !password.contains(where: \.isLetter) || password.allSatisfy(\.isLetter) {
            return "password must hold letters and at least one digit or symbol"
        }
        return nil
    }

    /// The key an address is unique by: lower-cased (addresses differ only in case are one).
    static func emailKey(_ email: String) -> String { email.lowercased() }
}
