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

    /// Parses a form body into ordered pairs; `+` is a space, malformed escapes are kept as text.
    public static func decode(_ body: String) -> [(String, String)] {
        body.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let unescape: (Substring) -> String = {
                let spaced = $0.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }
}
