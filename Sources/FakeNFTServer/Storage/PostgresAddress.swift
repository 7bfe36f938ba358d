import Foundation

/// Where a PostgreSQL database is: `postgres://user[:password]@host[:port]/database` (or
/// `postgresql://`), as `--database` and `FAKENFT_DATABASE` give it. Without a database name,
/// the user's; without a port, 5432. Connections are not encrypted (loopback or a private network).
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String

    /// Nil when `text` is not such an address.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text),
            ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? ""),
            let user = components.user, !user.isEmpty, let host = components.host, !host.isEmpty
        else { return nil }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { return nil }
        if let port = components.port, !(1...65535).contains(port) { return nil }
        self.user = user
        self.password = components.password
        self.host = host
        self.port = components.port ?? 5432
        self.database = path.isEmpty ? user : path
    }

    /// The address without its password (for logs and messages).
    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }
}
