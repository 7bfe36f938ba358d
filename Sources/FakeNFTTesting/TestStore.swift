import Foundation
import GRDB

/// Which database the server tests run on: SQLite, or PostgreSQL when `FAKENFT_TEST_STORE` is
/// `postgres` (`make test` runs the server suite a second time that way, inside
/// `scripts/with-postgres.sh`, which gives the cluster's address in `FAKENFT_TEST_POSTGRES`).
public enum TestStore {
    private static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// Whether servers started by ``TestServer`` use PostgreSQL.
    public static var isPostgres: Bool { environment["FAKENFT_TEST_STORE"] == "postgres" }

    /// The test cluster (a superuser's address), when there is one.
    public static var cluster: String? { environment["FAKENFT_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 } }

    /// How long a test server's query may wait (`query_timeout`): the whole suite's servers share
    /// two busy cores and their pools wait their turn, so far past the 10 s a server is given; a
    /// test of the time-out itself gives its own.
    public static let queryTimeoutSeconds = 60

    /// The address of a database of its own for the server of `dataDirectory` (the same one
    /// again for the same folder, so a restarted server finds its data), created when missing.
    public static func database(for dataDirectory: URL) throws -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a of the folder's path
        for byte in dataDirectory.standardizedFileURL.path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return try database(named: "t_\(String(hash, radix: 16))", queryTimeoutSeconds: queryTimeoutSeconds)
    }

    /// A new, empty database's address, whose queries may wait `queryTimeoutSeconds`.
    public static func newDatabase(queryTimeoutSeconds: Int = queryTimeoutSeconds) throws -> String {
        try database(
            named: "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""),
            queryTimeoutSeconds: queryTimeoutSeconds)
    }

    private static func database(named name: String, queryTimeoutSeconds: Int) throws -> String {
        guard let cluster, let slash = cluster.lastIndex(of: "/") else {
            throw SpawnError(description: "no PostgreSQL test cluster: run the tests through scripts/with-postgres.sh")
        }
        if try rows(cluster, "SELECT 1 FROM pg_database WHERE datname = '\(name)'").isEmpty {
            _ = try rows(cluster, "CREATE DATABASE \(name)")
        }
        return cluster[..<slash] + "/" + name + "?query_timeout=\(queryTimeoutSeconds)"
    }

    /// Runs `sql` in the database at `address` with psql; returns the rows, each as its fields' text.
    public static func rows(_ address: String, _ sql: String) throws -> [[String]] {
        let (status, output) = try spawnAndWait(
            "/usr/bin/psql",
            [psqlAddress(address), "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql])
        guard status == 0 else { throw SpawnError(description: "psql failed (\(status)) for \(sql): \(output)") }
        return output.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// The name of the database at a test `address`.
    public static func name(of address: String) -> String {
        URLComponents(string: address)?.path.split(separator: "/").last.map(String.init) ?? ""
    }

    /// `address` without the server's own parameters (`query_timeout`, `pool_max_conns`), which
    /// psql does not know.
    public static func psqlAddress(_ address: String) -> String {
        guard var parts = URLComponents(string: address) else { return address }
        parts.queryItems = parts.queryItems?.filter { !["query_timeout", "pool_max_conns"].contains($0.name) }
        if parts.queryItems?.isEmpty == true { parts.queryItems = nil }
        return parts.string ?? address
    }
}

extension TestServer {
    /// Runs `sql` in this server's database behind its back (SQLite file or PostgreSQL); returns
    /// the rows, each as its fields' text. Quote camel-case names ("passwordHash"): both accept it.
    public func databaseRows(_ sql: String) async throws -> [[String]] {
        if let address = configuration.postgresURL { return try TestStore.rows(address, sql) }
        let queue = try DatabaseQueue(path: configuration.dataDirectory.appendingPathComponent("fakenft.sqlite").path)
        defer { try? queue.close() }
        return try await queue.write { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { value in
                    switch value.storage {
                    case .null: ""
                    case .int64(let number): String(number)
                    case .double(let number): String(number)
                    case .string(let text): text
                    case .blob(let data): data.base64EncodedString()
                    }
                }
            }
        }
    }
}
