import Foundation

/// The catalog of every string the interface shows: ``TextKey`` names them, one table per
/// language holds them (``english``, ``russian``). Placeholders are `{0}`, `{1}`…; a plural entry
/// holds its forms separated by `|` (English: one|other; Russian: one|few|many).
public enum Catalog {
    /// The table of `language`.
    public static func table(_ language: Language) -> [TextKey: String] {
        switch language {
        case .en: english
        case .ru: russian
        }
    }

    /// The entry for `key` in `language` with the placeholders filled in.
    public static func text(_ key: TextKey, _ arguments: [String], in language: Language) -> String {
        fill(table(language)[key] ?? english[key] ?? key.rawValue, arguments)
    }

    /// The plural form of `key` for `count` in `language`, with `{0}` the count (in the
    /// language's digits) and `{1}`… the further arguments.
    public static func plural(_ key: TextKey, _ count: Int, _ arguments: [String], in language: Language) -> String {
        let forms = (table(language)[key] ?? english[key] ?? key.rawValue).split(
            separator: "|", omittingEmptySubsequences: false)
        let form = forms[min(forms.count - 1, pluralIndex(count, language))]
        return fill(String(form), [String(count)] + arguments)
    }

    /// Which form a count takes: English one (1) or other; Russian one (1, 21, 101…),
    /// few (2-4, 22-24…) or many (0, 5-20, 25-30…).
    public static func pluralIndex(_ count: Int, _ language: Language) -> Int {
        let n = count.magnitude
        switch language {
        case .en: return n == 1 ? 0 : 1
        case .ru:
            let (units, tens) = (n % 10, n % 100)
            if units == 1 && tens != 11 { return 0 }
            if (2...4).contains(units) && !(12...14).contains(tens) { return 1 }
            return 2
        }
    }

    /// The number of plural forms a language's entries have.
    public static func pluralForms(_ language: Language) -> Int { language == .en ? 2 : 3 }

    /// The placeholders `{n}` in `text`, in order of appearance.
    public static func placeholders(_ text: String) -> [Int] {
        var found: [Int] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}"), let index = Int(after[..<close]) else {
                rest = after
                continue
            }
            found.append(index)
            rest = after[after.index(after: close)...]
        }
        return found
    }

    /// `text` with each `{n}` replaced by `arguments[n]` in one pass (an argument that holds
    /// braces is never read again).
    static func fill(_ text: String, _ arguments: [String]) -> String {
        // Bytes, not Foundation's `contains`: a frame fills hundreds of texts.
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let index = Int(after[..<close]),
                arguments.indices.contains(index)
            {
                out += arguments[index]
                rest = after[after.index(after: close)...]
            } else {
                out += "{"
                rest = after
            }
        }
        return out + rest
    }
}

/// The current language's text for `key`, with `arguments` in its placeholders.
public func tr(_ key: TextKey, _ arguments: any CustomStringConvertible...) -> String {
    Catalog.text(key, arguments.map(\.description), in: Language.current)
}

/// The current language's plural form of `key` for `count` ("5 коллекций").
public func trPlural(_ key: TextKey, _ count: Int, _ arguments: any CustomStringConvertible...) -> String {
    Catalog.plural(key, count, arguments.map(\.description), in: Language.current)
}

/// `value` with two decimals and the current language's decimal separator ("3.35", "3,35").
/// Not finite values read "—".
public func decimal(_ value: Double, digits: Int = 2) -> String {
    guard value.isFinite else { return "—" }
    let text = String(format: "%.\(max(0, min(digits, 6)))f", value)
    return Language.current == .ru ? text.replacingOccurrences(of: ".", with: ",") : text
}
