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

    /// A name of 1 to 100 characters (trimmed), without control characters, with something that
    /// shows (a name of zero-width spaces or Hangul fillers looks blank).
    public static func nameProblem(_ name: String) -> Problem? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed.unicodeScalars.allSatisfy(looksBlank) { return .nameEmpty }
        if trimmed.count > maxName { return .nameTooLong }
        if trimmed.unicodeScalars.contains(where: isControl) { return .nameHasControls }
        return nil
    }

    /// A scalar that shows nothing: whitespace, an invisible format character (a zero-width
    /// space, a soft hyphen), a blank that is a letter (Hangul fillers, the blank braille cell).
    static func looksBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.properties.generalCategory == .format
            || [0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0].contains(scalar.value)
    }

    /// An address with one `@`, something before it and a dotted domain after it, at most 254
    /// characters, without spaces, invisible or control characters; in each part (the name, each
    /// label of the domain) letters of one alphabet of Latin, Greek and Cyrillic, whose letters
    /// look alike (`pаypal@…` with a Cyrillic `а` looks like another's address); not in the
    /// `.invalid` domain, which never delivers mail. The shape is checked on the address's
    /// ``emailKey(_:)``, the form it is unique and signed in by, so that no spelling that folds to
    /// a refused address (fullwidth or mathematical letters, a fullwidth `＠` or `．`) gets by.
    public static func emailProblem(_ email: String) -> Problem? {
        guard email.count <= maxEmail,
            !email.unicodeScalars.contains(where: { looksBlank($0) || $0.properties.generalCategory == .control })
        else { return .emailInvalid }
        let key = emailKey(email)
        let parts = key.split(separator: "@", omittingEmptySubsequences: false)
        let domain = parts.count == 2 ? parts[1].split(separator: ".", omittingEmptySubsequences: false) : []
        guard key.count <= maxEmail, parts.count == 2, !parts[0].isEmpty, domain.count >= 2,
            !domain.contains(where: \.isEmpty), domain.last != "invalid",
            !key.unicodeScalars.contains(where: { looksBlank($0) || $0.properties.generalCategory == .control }),
            key.split(whereSeparator: { $0 == "@" || $0 == "." }).allSatisfy(isOneAlphabet)
        else { return .emailInvalid }
        return nil
    }

    /// Whether the letters of `text` come from one alphabet at most of those that look alike.
    public static func isOneAlphabet(_ text: Substring) -> Bool {
        Set(text.unicodeScalars.compactMap(LetterScript.init).filter { $0 != .other }).count <= 1
    }

    /// The scripts whose letters look alike (`a`, `а`, `α`; `o`, `о`, `ο`).
    enum LetterScript {
        case latin, greek, cyrillic, other

        /// The script of a letter; nil for anything that is not a letter.
        init?(_ scalar: Unicode.Scalar) {
            guard scalar.properties.isAlphabetic else { return nil }
            switch scalar.value {
            case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF: self = .latin
            case 0x370...0x3FF, 0x1F00...0x1FFF: self = .greek
            case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: self = .cyrillic
            default: self = .other
            }
        }
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
    /// only in case are one), the dotless `ı` as `i`. For plain ASCII addresses, the lower-cased
    /// address.
    public static func emailKey(_ email: String) -> String {
        email.precomposedStringWithCompatibilityMapping.folding(options: .caseInsensitive, locale: nil)
            .replacingOccurrences(of: "ı", with: "i").precomposedStringWithCompatibilityMapping
    }
}

extension AccountRules {
    /// The form two names that look alike share: compatibility form (fullwidth and mathematical
    /// letters as plain ones), case-folded, without invisible characters, each Cyrillic or Greek
    /// letter that looks like a Latin one as that letter (`Аdmin` with a Cyrillic `А`, `Ａｄｍｉｎ`
    /// and `admin` are one). Names the server makes up are held apart from others by it.
    public static func lookAlikeKey(_ name: String) -> String {
        let folded = name.precomposedStringWithCompatibilityMapping.folding(
            options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var key = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars where !looksBlank(scalar) {
            key.append(latinLookAlikes[scalar] ?? scalar)
        }
        return String(key)
    }

    /// Lower-case Cyrillic and Greek letters and the Latin letters they pass for.
    private static let latinLookAlikes: [Unicode.Scalar: Unicode.Scalar] = {
        let pairs: [(String, String)] = [
            ("аеорсухкмнтвіјѕԁһӏ", "aeopcyxkmhtbijsdhl"),
            ("αβεικνορτυχζη", "abeikvoptuxzn"),
        ]
        var map: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (from, to) in pairs {
            for (a, b) in zip(from.unicodeScalars, to.unicodeScalars) { map[a] = b }
        }
        map["ı"] = "i"
        return map
    }()
}
