import Foundation

/// The proxies the environment names, read as curl reads them: `http_proxy` for http URLs,
/// `https_proxy` for https ones (upper-case names too; lower-case wins), `no_proxy` for the
/// hosts reached directly (a comma-separated list of names, each with its subdomains, or `*`).
/// Loopback is always reached directly (as Go's HTTP client does): the embedded server is never
/// sent through a machine-wide proxy.
public struct ProxySettings: Sendable, Hashable {
    /// An HTTP proxy (https URLs go through it with CONNECT, so it never reads them).
    public struct Proxy: Sendable, Hashable {
        public var host: String
        public var port: Int
        /// From the proxy's URL (`http://user:password@host`), for Basic authentication with it.
        public var user: String?
        public var password: String?
    }

    public var http: Proxy?
    public var https: Proxy?
    /// Lower-cased names (without a leading dot or a port) reached directly; `*` is every host.
    public var direct: [String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func value(_ name: String) -> String? {
            (environment[name] ?? environment[name.uppercased()]).flatMap { $0.isEmpty ? nil : $0 }
        }
        http = value("http_proxy").flatMap(Self.proxy)
        https = value("https_proxy").flatMap(Self.proxy)
        direct = (value("no_proxy") ?? "").split(separator: ",").compactMap { entry in
            var name = entry.trimmingCharacters(in: .whitespaces).lowercased()
            if name.hasPrefix(".") { name.removeFirst() }
            if !name.hasPrefix("["), let colon = name.lastIndex(of: ":"), name.filter({ $0 == ":" }).count == 1 {
                name = String(name[..<colon])
            }
            return name.isEmpty ? nil : name
        }
    }

    /// The proxy a request for `url` goes through; nil: straight to the host.
    public func proxy(for url: URL) -> Proxy? {
        guard let host = url.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")),
            !Self.isLoopback(host),
            !direct.contains(where: { $0 == "*" || host == $0 || host.hasSuffix("." + $0) })
        else { return nil }
        switch url.scheme?.lowercased() {
        case "http": return http
        case "https": return https
        default: return nil
        }
    }

    /// `http://[user:password@]host[:port]` or `host[:port]`; other schemes (https or socks
    /// proxies) are not supported and ignored.
    static func proxy(_ text: String) -> Proxy? {
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let components = URLComponents(string: withScheme), components.scheme?.lowercased() == "http",
            let host = components.host, !host.isEmpty
        else { return nil }
        return Proxy(
            host: host, port: components.port ?? 1080, user: components.user.flatMap { $0.removingPercentEncoding },
            password: components.password.flatMap { $0.removingPercentEncoding })
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host.hasPrefix("127.")
    }
}
