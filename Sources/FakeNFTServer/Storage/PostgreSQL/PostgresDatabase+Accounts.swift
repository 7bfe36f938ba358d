import PostgresNIO

/// Accounts, sign-ins, SSH keys and visitors, and paid orders on PostgreSQL: each call one
/// transaction (or one query) on a pooled connection: its ``AccountDatabase`` part.
extension PostgresDatabase {
    func register(_ rows: OwnerRows, session: SessionRecord, key: SSHKeyRecord?) async throws -> Int {
        guard let account = rows.account, let newUser = rows.user else {
            throw StoreError.damaged("an account without its rows")
        }
        return try await transaction { db in
            // The counter's lock first: sign-ups check the address and number their row in /users one at a time.
            try await db.query("SELECT 1 FROM store_state WHERE id = 1 FOR UPDATE", logger: Self.quiet)
            if try await !Self.accounts("emailKey", account.emailKey, db).isEmpty { throw StoreError.emailTaken }
            try await Self.insert([account], db)
            try await Self.insert([rows.profile], db)
            try await Self.insert([rows.order], db)
            var user = newUser
            user.seq =
                try await db.query(#"SELECT COALESCE(MAX(seq), -1) + 1 FROM "user""#, logger: Self.quiet).decode(
                    Int.self
                ).array().first ?? 0
            try await Self.insert([user], db)
            try await Self.insert([session], db)
            if let key { try await Self.insert([key], db) }
            return try await Self.recordChange(owner: account.userID, users: true, sessions: true, db)
        }
    }

    func startSession(_ session: SessionRecord) async throws -> Int {
        try await transaction { db in
            try await Self.insert([session], db)
            return try await Self.recordChange(owner: session.userID, users: false, sessions: true, db)
        }
    }

    func lend(_ session: SessionRecord) async throws -> Int? {
        try await transaction { db in
            // The account's row locked first: servers lending it at once take turns, and each
            // after the first sees the session the first added.
            try await db.query(
                #"SELECT 1 FROM account WHERE "userID" = \#(session.userID) FOR UPDATE"#, logger: Self.quiet)
            let held = try await db.query(
                #"SELECT 1 FROM session WHERE "userID" = \#(session.userID) LIMIT 1"#, logger: Self.quiet
            ).decode(Int.self).array()
            guard held.isEmpty else { return nil }
            try await Self.insert([session], db)
            return try await Self.recordChange(owner: session.userID, users: false, sessions: true, db)
        }
    }

    func endSession(tokenHash: String) async throws -> (ended: Bool, generation: Int) {
        try await transaction { db in
            let owners = try await db.query(
                #"DELETE FROM session WHERE "tokenHash" = \#(tokenHash) RETURNING "userID""#, logger: Self.quiet
            ).decode(String.self).array()
            guard let owner = owners.first else { return (false, try await Self.generation(db)) }  // nothing changed
            return (true, try await Self.recordChange(owner: owner, users: false, sessions: true, db))
        }
    }

    func endSessions(userID: String) async throws -> (ended: Int, generation: Int) {
        try await transaction { db in
            let ended = try await db.query(
                #"DELETE FROM session WHERE "userID" = \#(userID) RETURNING "tokenHash""#, logger: Self.quiet
            ).decode(String.self).array().count
            return (ended, try await Self.recordChange(owner: userID, users: false, sessions: true, db))
        }
    }

    func touchSession(tokenHash: String, at time: String) async throws -> Int {
        try await transaction { db in
            let owners = try await db.query(
                #"UPDATE session SET "lastUsedAt" = \#(time) WHERE "tokenHash" = \#(tokenHash) RETURNING "userID""#,
                logger: Self.quiet
            ).decode(String.self).array()
            guard let owner = owners.first else { return try await Self.generation(db) }
            return try await Self.recordChange(owner: owner, users: false, sessions: true, db)
        }
    }

    func owner(ofKey fingerprint: String) async throws -> String? {
        try await connection { db in
            try await db.query(#"SELECT "userID" FROM ssh_key WHERE fingerprint = \#(fingerprint)"#, logger: Self.quiet)
                .decode(String.self).array().first
        }
    }

    func link(_ key: SSHKeyRecord) async throws {
        try await connection { db in
            _ = try await db.query(
                #"""
                INSERT INTO ssh_key (fingerprint, "userID", "createdAt")
                  VALUES (\#(key.fingerprint), \#(key.userID), \#(key.createdAt))
                  ON CONFLICT (fingerprint) DO UPDATE
                  SET "userID" = EXCLUDED."userID", "createdAt" = EXCLUDED."createdAt"
                """#, logger: Self.quiet)
        }
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

    func account(emailKey: String) async throws -> AccountRecord? {
        try await connection { db in try await Self.accounts("emailKey", emailKey, db).first }
    }

    func account(userID: String) async throws -> AccountRecord? {
        try await connection { db in try await Self.accounts("userID", userID, db).first }
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
