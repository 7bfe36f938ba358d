/// `host:port` (an IPv6 host in brackets, `[::1]:9464`), as an option names a listener.
public struct ListenAddress: Sendable, Hashable {
    public let host: String
    public let port: Int

    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == " " }) else { return nil }
        self.host = host
        self.port = port
    }
}
