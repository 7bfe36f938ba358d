import FakeNFTModels
import Foundation
import Logging
import PostgresNIO

/// The store's rows read from and written to PostgreSQL (id lists as JSON text, as in SQLite).
extension PostgresDatabase {
    /// Queries log nothing: failures reach the caller, which says what went wrong.
    static let quiet = Logger(label: "fakenft.postgres") { _ in SwiftLogNoOpLogHandler() }

    /// `table`'s columns as a select list; with an `alias`, each named `alias_column` (columns of
    /// a joined table, read with that prefix).
    static func columns(of table: String, alias: String? = nil) -> String {
        StorageSchema.columns(of: table).map { column in
            alias.map { #"\#($0)."\#(column)" AS "\#($0)_\#(column)""# } ?? "\"\(column)\""
        }.joined(separator: ", ")
    }

    /// The rows `query` finds, each read by column name as a `Record`.
    static func records<Record: Decodable>(_ query: PostgresQuery, _ db: PostgresConnection) async throws -> [Record] {
        try await db.query(query, logger: quiet).array().map {
            try Record(from: RecordDecoder(row: $0.makeRandomAccess()))
        }
    }

    /// Every row of `Record`'s table, in storage order.
    static func all<Record: StoredRecord>(_ db: PostgresConnection) async throws -> [Record] {
        let table = Record.databaseTableName
        return try await records(
            PostgresQuery(unsafeSQL: #"SELECT \#(columns(of: table)) FROM "\#(table)" ORDER BY "seq""#), db)
    }

    /// The rows of `Record`'s table whose `column` is `value` (every row when `value` is nil),
    /// locked for the transaction when `lock` is set.
    static func rows<Record: StoredRecord>(
        where column: String, is value: String?, lock: Bool = false, _ db: PostgresConnection
    ) async throws -> [Record] {
        let table = Record.databaseTableName
        var query = PostgresQuery(
            unsafeSQL: #"SELECT \#(columns(of: table)) FROM "\#(table)""#
                + (value == nil ? "" : #" WHERE "\#(column)" = $1"#)
                + (lock ? " FOR UPDATE" : ""))
        if let value { query.binds.append(value) }
        return try await records(query, db)
    }

    /// The accounts whose `column` (`userID` or `emailKey`) is `value`.
    static func accounts(_ column: String, _ value: String, lock: Bool = false, _ db: PostgresConnection) async throws
        -> [AccountRecord]
    {
        try await rows(where: column, is: value, lock: lock, db)
    }

    /// Owners' rows, in one query, an account's sign-ins as one JSON array (an owner without a
    /// profile or an order is left out).
    static func rows(of owners: Set<String>, _ db: PostgresConnection) async throws -> [String: OwnerRows] {
        var found: [String: OwnerRows] = [:]
        let rows = try await db.query(
            #"""
            SELECT \#(unescaped: columns(of: "profile", alias: "p")), \#(unescaped: columns(of: "orders", alias: "o")),
              \#(unescaped: columns(of: "account", alias: "a")), \#(unescaped: columns(of: "user", alias: "u")),
              COALESCE((SELECT json_agg(s) FROM session s WHERE s."userID" = a."userID"), '[]')::text AS signins
            FROM profile p JOIN orders o ON o.id = p.id
              LEFT JOIN account a ON a."userID" = p.id AND p.id <> \#(Owner.shared)
              LEFT JOIN "user" u ON u.id = a."userID"
            WHERE p.id = ANY(\#(Array(owners)))
            """#, logger: quiet)
        for try await row in rows {
            let columns = row.makeRandomAccess()
            func read<Record: Decodable>(_ alias: String) throws -> Record {
                try Record(from: RecordDecoder(row: columns, prefix: alias + "_"))
            }
            let profile: ProfileRecord = try read("p")
            let account: AccountRecord? = columns["a_userID"].bytes == nil ? nil : try read("a") as AccountRecord
            let user: UserRecord? = account == nil || columns["u_seq"].bytes == nil ? nil : try read("u") as UserRecord
            let sessions = try JSONDecoder().decode(
                [SessionRecord].self, from: Data(try columns["signins"].decode(String.self).utf8))
            found[profile.id] = OwnerRows(
                profile: profile, order: try read("o"), account: account, user: user, sessions: sessions)
        }
        return found
    }

    /// `owner`'s rows, locked until the transaction ends.
    static func lockedRows(of owner: String, _ db: PostgresConnection) async throws -> OwnerRows {
        let profiles: [ProfileRecord] = try await rows(where: "id", is: owner, lock: true, db)
        let orders: [OrderRecord] = try await rows(where: "id", is: owner, lock: true, db)
        guard let profile = profiles.first, let order = orders.first else {
            throw StoreError.damaged("the database has no profile or no order '\(owner)'")
        }
        let account = owner == Owner.shared ? nil : try await accounts("userID", owner, lock: true, db).first
        guard account != nil else { return OwnerRows(profile: profile, order: order) }
        return OwnerRows(
            profile: profile, order: order, account: account,
            user: try await (rows(where: "id", is: owner, lock: true, db) as [UserRecord]).first,
            sessions: try await rows(where: "userID", is: owner, db))
    }

    static func generation(_ db: PostgresConnection) async throws -> Int {
        try await db.query("SELECT generation FROM store_state WHERE id = 1", logger: quiet).decode(Int.self).array()
            .first ?? 0
    }

    /// Counts a reseed (which empties the change log: every server reads everything again).
    static func nextGeneration(_ db: PostgresConnection) async throws -> Int {
        guard
            let generation = try await db.query(
                "UPDATE store_state SET generation = generation + 1 WHERE id = 1 RETURNING generation", logger: quiet
            )
            .decode(Int.self).array().first
        else { throw StoreError.damaged("the database has no store_state row") }
        return generation
    }

    /// Writes `changes` (of different owners; one or more) in one call of `fakenft_apply`
    /// (``PostgresFunctions/v16Apply``), named as `writer`'s: each change's generation, in order;
    /// nil for one whose rows were no longer at the versions it was made from, ``StoreError/emailTaken``
    /// for a sign-up with an address that has an account.
    static func write(_ changes: [PostgresChange], writer: String, _ db: PostgresConnection) async throws
        -> [Result<Int?, any Error>]
    {
        let numbered =
            try await db.execute(ChangesCall(changes: changes, writer: writer), logger: quiet).array().first ?? []
        guard numbered.count == changes.count else {
            throw StoreError.damaged("fakenft_apply answered \(numbered.count) of \(changes.count) changes")
        }
        return numbered.map { $0 > 0 ? .success($0) : $0 == 0 ? .success(nil) : .failure(StoreError.emailTaken) }
    }

    /// The call of `fakenft_apply`, prepared once per connection (postgres-nio keeps it by
    /// name): a batch sends only its changes' rows, and what their notifications carry.
    struct ChangesCall: PostgresPreparedStatement {
        static let name = "fakenft_apply_call"
        static let sql = "SELECT fakenft_apply($1::jsonb, $2, $3)"
        var changes: [PostgresChange]
        var writer: String

        func makeBindings() throws -> PostgresBindings {
            var binds = PostgresBindings(capacity: 3)
            binds.append(String(buffer: try JSONBody.encode(changes)))
            binds.append(StorageSchema.changeLogLength)
            binds.append(writer)
            return binds
        }

        func decodeRow(_ row: PostgresRow) throws -> [Int] { try row.decode([Int].self) }
    }

    /// Inserts `records` into their table with a few statements of up to 500 rows each, instead
    /// of one round trip per row: seeding a new database takes a moment, not seconds.
    static func insert<Record: StoredRecord>(_ records: [Record], _ db: PostgresConnection) async throws {
        let table = Record.databaseTableName
        var start = records.startIndex
        while start < records.endIndex {
            let end = min(start + 500, records.endIndex)
            var values = PostgresColumnValues()
            var tuples: [String] = []
            for record in records[start..<end] {
                let first = values.binds.count + 1
                values.names = []
                try RecordEncoder.write(record, to: &values)
                tuples.append("(" + (first..<values.binds.count + 1).map { "$\($0)" }.joined(separator: ", ") + ")")
            }
            let columns = values.names.map { "\"\($0)\"" }.joined(separator: ", ")
            try await db.query(
                PostgresQuery(
                    unsafeSQL: #"INSERT INTO "\#(table)" (\#(columns)) VALUES "# + tuples.joined(separator: ", "),
                    binds: values.binds),
                logger: quiet)
            start = end
        }
    }

    /// Replaces all data with `dataset`; the change log starts again, so every server reads
    /// everything again.
    static func replaceAll(with dataset: Dataset, _ db: PostgresConnection) async throws {
        for table in ["session", "account", "nft", "collection", "user", "currency", "profile", "orders", "change_log"]
        {
            try await db.query(PostgresQuery(unsafeSQL: #"DELETE FROM "\#(table)""#), logger: quiet)
        }
        try await insert(dataset.nfts.enumerated().map { NFTRecord(seq: $0, $1) }, db)
        try await insert(dataset.collections.enumerated().map { CollectionRecord(seq: $0, $1) }, db)
        try await insert(dataset.users.enumerated().map { UserRecord(seq: $0, $1) }, db)
        try await insert(
            dataset.currencies.enumerated().map {
                CurrencyRecord(seq: $0, $1, paymentSucceeds: dataset.paymentSucceeds[$1.id] ?? true)
            }, db)
        try await insert([ProfileRecord(dataset.profile)], db)
        try await insert([OrderRecord(dataset.order)], db)
        let generation = try await nextGeneration(db)
        try await db.query("SELECT pg_notify(\(channel), \(String(generation)))", logger: quiet)
    }
}

extension AsyncSequence {
    /// Every element, in order.
    func array() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
