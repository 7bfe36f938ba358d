import Foundation

/// Where a PostgreSQL database is and how to reach it, read as libpq reads a connection URI:
/// `postgres://[user[:password]@][host][:port][/database][?parameter=value&…]` (or
/// `postgresql://`), the parameters `host`, `port`, `user`, `password`, `dbname`, `sslmode`,
/// `sslrootcert` and `keepalives_idle`, `pool_max_conns` as pgx reads it and `query_timeout` as
/// PgBouncer does. What the address
/// leaves out comes from `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`
/// and `PGSSLROOTCERT`, then from libpq's defaults: the socket folder `/var/run/postgresql` when
/// it exists (else `localhost`), port 5432, the login name, the user's database and
/// `sslmode=prefer`. A host that starts with `/` is the folder of a Unix socket (percent-encoded
/// in the host part, or as `?host=`).
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted: libpq's `sslmode`s (`allow` is not offered).
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Never: a server that demands TLS refuses the connection.
        case disable
        /// When the server offers it, without checking its certificate.
        case prefer
        /// Always; the certificate is checked against `sslrootcert` only when one is given.
        case require
        /// Always, with a certificate signed by `sslrootcert` (else the system's authorities).
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate must name the host connected to.
        case verifyFull = "verify-full"
    }

    public var user: String
    public var password: String?
    /// A host name or address, or a Unix socket's folder (starting with `/`).
    public var host: String
    public var port: Int
    public var database: String
    public var tlsMode: TLSMode
    /// A PEM file of the certificate authorities the server's certificate must chain to.
    public var rootCertificatePath: String?
    /// Seconds after which an idle pooled connection is pinged (`SELECT 1`), so that something
    /// between the servers and PostgreSQL that drops idle connections keeps them (libpq's
    /// `keepalives_idle`); none when `nil`, the default.
    public var keepaliveSeconds: Int?
    /// How many connections each server's pool may open (pgx's `pool_max_conns`).
    public var poolSize = PostgresAddress.defaultPoolSize
    /// The longest a query, with its wait for a pooled connection, may take before the request is
    /// answered 503 (PgBouncer's `query_timeout`, in seconds): a database that is down must not hold
    /// requests for the pool's minute.
    public var queryTimeout = PostgresAddress.defaultQueryTimeout

    /// The Unix socket's path when ``host`` is a folder (libpq's `.s.PGSQL.<port>` in it).
    public var socketPath: String? { host.hasPrefix("/") ? "\(host)/.s.PGSQL.\(port)" : nil }

    /// Reads `text`, completed from `environment`; throws what is wrong with it in a sentence.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(Problem) {
        let parts = try Self.parts(of: text)
        // The variables are checked as the address's parts are (they end up in messages and logs).
        if let bad = Self.variables.first(where: { environment[$0].map(Self.hasControls) ?? false }) {
            throw Problem("\(bad) may not hold control characters")
        }
        func value(_ fromAddress: String?, _ parameter: String, _ variable: String) -> String? {
            [fromAddress, parts.parameters[parameter], environment[variable]].lazy.compactMap { $0 }
                .first { !$0.isEmpty }
        }
        user = value(parts.user, "user", "PGUSER") ?? Self.loginName
        password =
            [parts.password, parts.parameters["password"], environment["PGPASSWORD"]].lazy.compactMap { $0 }
            .first
        host =
            value(parts.host, "host", "PGHOST")
            ?? (FileManager.default.fileExists(atPath: Self.debianSocketFolder) ? Self.debianSocketFolder : "localhost")
        guard !host.contains(",") else { throw Problem("several hosts (\(host)) are not supported: give one") }
        let portText = value(parts.port, "port", "PGPORT") ?? "5432"
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw Problem("the port must be a number in 1...65535, not \(portText)")
        }
        self.port = port
        database = value(parts.database, "dbname", "PGDATABASE") ?? user
        let modeText = value(nil, "sslmode", "PGSSLMODE") ?? TLSMode.prefer.rawValue
        guard let tlsMode = TLSMode(rawValue: modeText) else {
            throw Problem(
                "sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", ")), not \(modeText)")
        }
        self.tlsMode = tlsMode
        rootCertificatePath = value(nil, "sslrootcert", "PGSSLROOTCERT")
        if let text = parts.parameters["keepalives_idle"] {
            guard let seconds = Int(text), (1...86_400).contains(seconds) else {
                throw Problem("keepalives_idle must be a number of seconds in 1...86400, not \(text)")
            }
            keepaliveSeconds = seconds
        }
        if let text = parts.parameters["pool_max_conns"] {
            guard let size = Int(text), (1...1000).contains(size) else {
                throw Problem("pool_max_conns must be a number of connections in 1...1000, not \(text)")
            }
            poolSize = size
        }
        if let text = parts.parameters["query_timeout"] {
            guard let seconds = Int(text), (1...3600).contains(seconds) else {
                throw Problem("query_timeout must be a number of seconds in 1...3600, not \(text)")
            }
            queryTimeout = .seconds(seconds)
        }
    }

    /// The address without its password (for logs and messages).
    public var description: String {
        let socket = host.hasPrefix("/")
        let hostPart = socket ? "" : (host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
        let query =
            (socket ? ["host=\(host)", "port=\(port)"] : []) + ["sslmode=\(tlsMode.rawValue)"]
            + (keepaliveSeconds.map { ["keepalives_idle=\($0)"] } ?? [])
            + (poolSize == Self.defaultPoolSize ? [] : ["pool_max_conns=\(poolSize)"])
            + (queryTimeout == Self.defaultQueryTimeout ? [] : ["query_timeout=\(queryTimeout.components.seconds)"])
        return "postgres://\(user)@\(hostPart)/\(database)?\(query.joined(separator: "&"))"
    }

    /// Why an address cannot be used.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    private static let debianSocketFolder = "/var/run/postgresql"
    private static let defaultPoolSize = 20
    private static let defaultQueryTimeout: Duration = .seconds(10)
    private static let variables = [
        "PGHOST", "PGPORT", "PGUSER", "PGPASSWORD", "PGDATABASE", "PGSSLMODE", "PGSSLROOTCERT",
    ]

    private static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
    private static let parameters: Set = [
        "host", "port", "user", "password", "dbname", "sslmode", "sslrootcert", "keepalives_idle", "pool_max_conns",
        "query_timeout",
    ]

    private static var loginName: String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "postgres"
    }

    /// The address's parts, percent-decoded; nil where the address leaves one out.
    private struct Parts {
        var user: String?
        var password: String?
        var host: String?
        var port: String?
        var database: String?
        var parameters: [String: String] = [:]
    }

    private static func parts(of text: String) throws(Problem) -> Parts {
        let usage = "postgres://user[:password]@host[:port]/database[?sslmode=…]"
        guard let schemeEnd = text.range(of: "://"),
            ["postgres", "postgresql"].contains(text[..<schemeEnd.lowerBound].lowercased())
        else { throw Problem("'\(text)' is not a PostgreSQL address: \(usage)") }
        var rest = Substring(text[schemeEnd.upperBound...])
        var parts = Parts()
        if let question = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: question)...].split(separator: "&") {
                let field = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = try decoded(field[0])
                guard field.count == 2, Self.parameters.contains(name) else {
                    throw Problem(
                        """
                        '\(name)' is not a parameter this server reads (it reads \
                        \(Self.parameters.sorted().joined(separator: ", ")))
                        """
                    )
                }
                parts.parameters[name] = try decoded(field[1])
            }
            rest = rest[..<question]
        }
        if let slash = rest.firstIndex(of: "/") {
            let database = try decoded(rest[rest.index(after: slash)...])
            guard !database.contains("/") else { throw Problem("'\(text)' is not a PostgreSQL address: \(usage)") }
            parts.database = database.isEmpty ? nil : database
            rest = rest[..<slash]
        }
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            parts.user = try decoded(userInfo[0])
            if userInfo.count == 2 { parts.password = try decoded(userInfo[1]) }
            rest = rest[rest.index(after: at)...]
        }
        if rest.hasPrefix("[") {  // [IPv6]:port
            guard let close = rest.firstIndex(of: "]") else { throw Problem("'\(text)': an unclosed [ in the host") }
            parts.host = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            if rest.hasPrefix(":") {
                parts.port = String(rest.dropFirst())
            } else if !rest.isEmpty {
                throw Problem("'\(text)' is not a PostgreSQL address: \(usage)")
            }
        } else {
            let hostPort = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            parts.host = try decoded(hostPort[0])
            if hostPort.count == 2 { parts.port = String(hostPort[1]) }
        }
        return parts
    }

    private static func decoded(_ text: Substring) throws(Problem) -> String {
        guard let value = text.removingPercentEncoding else { throw Problem("'\(text)' has a broken %-escape") }
        guard !hasControls(value) else {
            throw Problem("a PostgreSQL address may not hold control characters")
        }
        return value
    }
}
