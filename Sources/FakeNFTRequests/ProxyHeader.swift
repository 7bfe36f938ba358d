#if canImport(Glibc)
    import Glibc
#endif

/// The first line of the PROXY protocol (version 1, text), which a TCP proxy such as nginx's
/// `stream` module sends before the client's own bytes: who the client is.
public enum ProxyHeader {
    /// The longest line the protocol allows, its CRLF included.
    public static let maxLength = 107
    /// How every header line starts.
    public static let prefix = "PROXY "

    /// The client's address in `line` (without its CRLF): `PROXY TCP4|TCP6 SOURCE DESTINATION
    /// SOURCE-PORT DESTINATION-PORT`. `PROXY UNKNOWN …` gives "" (the proxy's own address
    /// stands); anything else, nil.
    public static func clientAddress(_ line: Substring) -> String? {
        guard line.utf8.count <= maxLength - 2, line.hasPrefix(prefix) else { return nil }
        let words = line.split(separator: " ", omittingEmptySubsequences: false)
        if words.count >= 2, words[1] == "UNKNOWN" { return "" }
        guard words.count == 6, words[1] == "TCP4" || words[1] == "TCP6",
            isAddress(words[2], inet6: words[1] == "TCP6"), isAddress(words[3], inet6: words[1] == "TCP6"),
            isPort(words[4]), isPort(words[5])
        else { return nil }
        return String(words[2])
    }

    private static func isPort(_ text: Substring) -> Bool {
        text.utf8.count <= 5 && text.first != "0" && Int(text).map { (1...65_535).contains($0) } == true
    }

    private static func isAddress(_ text: Substring, inet6: Bool) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 16)
        return inet_pton(inet6 ? AF_INET6 : AF_INET, String(text), &bytes) == 1
    }
}
