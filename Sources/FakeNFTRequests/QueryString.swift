import FakeNFTModels

/// The query string of a URL, decoded: `+` is a space, keys and values are percent-decoded,
/// a malformed escape is kept as text, and the last of repeated keys wins.
public enum QueryString {
    public static func parse(_ query: Substring) -> [String: String] {
        var parameters: [String: String] = [:]
        for (key, value) in FormEncoding.decode(query) { parameters[key] = value }
        return parameters
    }
}
