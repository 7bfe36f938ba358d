import PostgresNIO

/// Accounts, paid orders and SSH visitors on PostgreSQL, read on demand (each one query on a
/// pooled connection): its ``AccountDatabase`` part.
extension PostgresDatabase {
    func account(_ lookup: AccountLookup) async throws -> AccountRecord? {
        switch lookup {
        case .emailKey(let key):
            return try await connection { db in try await Self.accounts("emailKey", key, db).first }
        case .userID(let id): return try await connection { db in try await Self.accounts("userID", id, db).first }
        case .key(let fingerprint):
            var query = PostgresQuery(
                unsafeSQL: #"SELECT \#(Self.columns(of: "account", alias: "a")) FROM account a "#
                    + #"JOIN ssh_key k ON k."userID" = a."userID" WHERE k.fingerprint = $1"#)
            query.binds.append(fingerprint)
            let found: [AccountRecord] = try await connection { [query] db in
                try await db.query(query, logger: Self.quiet).array().map {
                    try AccountRecord(from: RecordDecoder(row: $0.makeRandomAccess(), prefix: "a_"))
                }
            }
            return found.first
        }
    }

    func keys(of userID: String) async throws -> [SSHKeyRecord] {
        var query = PostgresQuery(
            unsafeSQL: #"SELECT \#(Self.columns(of: "ssh_key")) FROM ssh_key WHERE "userID" = $1"#
                + #" ORDER BY "createdAt", fingerprint"#)
        query.binds.append(userID)
        return try await connection { [query] db in try await Self.records(query, db) }
    }

    func visitor(key fingerprint: String) async throws -> SSHVisitorRecord? {
        try await connection { db in
            try await db.query(
                #"""
                SELECT fingerprint, state, "updatedAt" FROM ssh_visitor WHERE fingerprint = \#(fingerprint)
                """#, logger: Self.quiet
            )
            .decode((String, String, String).self).array().first
            .map { SSHVisitorRecord(fingerprint: $0.0, state: $0.1, updatedAt: $0.2) }
        }
    }

    func keep(_ visitor: SSHVisitorRecord) async throws {
        try await connection { db in
            _ = try await db.query(
                #"""
                INSERT INTO ssh_visitor (fingerprint, state, "updatedAt")
                  VALUES (\#(visitor.fingerprint), \#(visitor.state), \#(visitor.updatedAt))
                  ON CONFLICT (fingerprint) DO UPDATE SET state = EXCLUDED.state, "updatedAt" = EXCLUDED."updatedAt"
                """#, logger: Self.quiet)
        }
    }

    func purchases(of owner: String, id: String?, offset: Int, limit: Int) async throws -> [PurchaseRecord] {
        var query = PostgresQuery(
            unsafeSQL: #"SELECT \#(Self.columns(of: "purchase")) FROM purchase WHERE owner = $1"#
                + (id == nil ? "" : " AND id = $4") + #" ORDER BY "paidAt" DESC OFFSET $2 LIMIT $3"#)
        query.binds.append(owner)
        query.binds.append(offset)
        query.binds.append(limit)
        if let id { query.binds.append(id) }
        return try await connection { [query] db in try await Self.records(query, db) }
    }
}
