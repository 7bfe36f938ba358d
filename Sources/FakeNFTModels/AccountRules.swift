import Foundation

/// What an account's fields must be: one set of rules for the server, which enforces them, and
/// the app, which checks them as they are typed.
public enum AccountRules {
    public static let maxName = 100
    public static let maxEmail = 254
    public static let minPassword = 8
    /// bcrypt reads at most 72 bytes: a longer password would be cut without a word.
    public static let maxPasswordBytes = 72

    /// What is wrong with a field.
    public enum Problem: Sendable, Equatable {
        case nameEmpty, nameTooLong, nameHasControls
        case emailInvalid
        case passwordTooShort, passwordTooLong, passwordWeak, passwordHasControls
    }

    /// A control character, or a bidirectional override or isolate (text that shows reversed).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }

    /// A name of 1 to 100 characters (trimmed), without control characters.
    public static func nameProblem(_ name: String) -> Problem? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .nameEmpty }
        if trimmed.count > maxName { return .nameTooLong }
        if trimmed.unicodeScalars.contains(where: isControl) { return .nameHasControls }
        return nil
    }

    /// An address with one `@`, something before it and a dotted domain after it, at most 254
    /// characters, without spaces or control characters.
    public static func emailProblem(_ email: String) -> Problem? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        let domain = parts.count == 2 ? parts[1].split(separator: ".", omittingEmptySubsequences: false) : []
        guard email.count <= maxEmail, parts.count == 2, !parts[0].isEmpty, domain.count >= 2,
            !domain.contains(where: \.isEmpty),
            !email.unicodeScalars.contains(where: {
                $0.properties.isWhitespace || $0.properties.generalCategory == .control
            })
        else { return .emailInvalid }
        return nil
    }

    /// At least 8 characters with a letter and something that is not a letter, at most 72 bytes,
    /// without control characters (bcrypt stops at a NUL: `\0secret1` would be the empty password).
    public static func passwordProblem(_ password: String) -> Problem? {
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .passwordHasControls
        }
        if password.count < minPassword { return .passwordTooShort }
        if password.utf8.count > maxPasswordBytes { return .passwordTooLong }
        if !password.contains(where: \.isLetter) || password.allSatisfy(\.isLetter) { return .passwordWeak }
        return nil
    }

    /// The key an address is unique by: its compatibility form (NFKC: composed and decomposed
    /// accents, the Kelvin sign and the letter K are one), case-folded (addresses that differ
    /// only in case are one). For plain ASCII addresses, the lower-cased address.
    public static func emailKey(_ email: String) -> String {
        email.precomposedStringWithCompatibilityMapping.folding(options: .caseInsensitive, locale: nil)
            .precomposedStringWithCompatibilityMapping
    }
}
