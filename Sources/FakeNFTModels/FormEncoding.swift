import Foundation

/// `application/x-www-form-urlencoded` bodies, encoded the way real FakeNFT clients do:
/// commas stay raw, everything outside the unreserved set is percent-encoded (UTF-8).
public enum FormEncoding {
    private static let allowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~,")
        set.insert(charactersIn: ":/")
        return set
    }()

    public static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    public static func escape(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// Parses a form body into ordered pairs; `+` is a space, `%XX` a byte; a field with a
    /// malformed escape, or whose bytes are not UTF-8, is kept as text (with `+` a space).
    public static func decode(_ body: Substring) -> [(String, String)] {
        body.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }

    /// One field's text without its escapes (a hot path: every query string and form body).
    static func unescape(_ field: Substring) -> String {
        let utf8 = field.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(field) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            utf8.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = hexValue(utf8[index]),
                    case let low = utf8.index(after: index), low != utf8.endIndex, let lowValue = hexValue(utf8[low])
                else {
                    return String(
                        decoding: utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
                }
                bytes.append(high << 4 | lowValue)
                index = utf8.index(after: low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
            ?? String(decoding: utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
