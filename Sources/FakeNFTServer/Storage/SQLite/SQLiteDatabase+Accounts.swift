import GRDB

/// Accounts, sign-ins, SSH keys and visitors, and paid orders in the SQLite file: each call one
/// immediate transaction (or one read): its ``AccountDatabase`` part.
extension SQLiteDatabase {
    func register(_ rows: OwnerRows, session: SessionRecord, key: SSHKeyRecord?) async throws -> Int {
        try await write { db in
            guard let account = rows.account, var user = rows.user else {
                throw StoreError.damaged("an account without its rows")
            }
            if try AccountRecord.filter(AccountRecord.Columns.emailKey == account.emailKey).fetchCount(db) > 0 {
                throw StoreError.emailTaken
            }
            try account.insert(db)
            try rows.profile.insert(db)
            try rows.order.insert(db)
            user.seq = (try Int.fetchOne(db, sql: "SELECT MAX(seq) FROM \(UserRecord.databaseTableName)") ?? -1) + 1
            try user.insert(db)
            try session.insert(db)
            try key?.insert(db)
            return try Self.record(owner: account.userID, users: true, sessions: true, db)
        }
    }

    func startSession(_ session: SessionRecord) async throws -> Int {
        try await write { db in
            try session.insert(db)
            return try Self.record(owner: session.userID, users: false, sessions: true, db)
        }
    }

    func lend(_ session: SessionRecord) async throws -> Int? {
        try await write { db in
            guard try SessionRecord.filter(SessionRecord.Columns.userID == session.userID).fetchCount(db) == 0 else {
                return nil
            }
            try session.insert(db)
            return try Self.record(owner: session.userID, users: false, sessions: true, db)
        }
    }

    func endSession(tokenHash: String) async throws -> (ended: Bool, generation: Int) {
        try await write { db in
            guard let session = try SessionRecord.fetchOne(db, key: tokenHash) else {
                return (false, try Self.generation(db))
            }
            try session.delete(db)
            return (true, try Self.record(owner: session.userID, users: false, sessions: true, db))
        }
    }

    func endSessions(userID: String) async throws -> (ended: Int, generation: Int) {
        try await write { db in
            let ended = try SessionRecord.filter(SessionRecord.Columns.userID == userID).deleteAll(db)
            return (ended, try Self.record(owner: userID, users: false, sessions: true, db))
        }
    }

    func touchSession(tokenHash: String, at time: String) async throws -> Int {
        try await write { db in
            guard let session = try SessionRecord.fetchOne(db, key: tokenHash) else { return try Self.generation(db) }
            try SessionRecord.filter(key: tokenHash).updateAll(db, SessionRecord.Columns.lastUsedAt.set(to: time))
            return try Self.record(owner: session.userID, users: false, sessions: true, db)
        }
    }

    func owner(ofKey fingerprint: String) async throws -> String? {
        try await read { db in try SSHKeyRecord.fetchOne(db, key: fingerprint)?.userID }
    }

    func link(_ key: SSHKeyRecord) async throws {
        _ = try await write { db in
            try key.save(db)
            return 0
        }
    }

    func visitor(key fingerprint: String) async throws -> SSHVisitorRecord? {
        try await read { db in try SSHVisitorRecord.fetchOne(db, key: fingerprint) }
    }

    func keep(_ visitor: SSHVisitorRecord) async throws {
        _ = try await write { db in
            try visitor.save(db)
            return 0
        }
    }

    func account(emailKey: String) async throws -> AccountRecord? {
        try await read { db in try AccountRecord.filter(AccountRecord.Columns.emailKey == emailKey).fetchOne(db) }
    }

    func account(userID: String) async throws -> AccountRecord? {
        try await read { db in try AccountRecord.fetchOne(db, key: userID) }
    }

    func purchases(of owner: String, id: String?, offset: Int, limit: Int) async throws -> [PurchaseRecord] {
        try await read { db in
            var request = PurchaseRecord.filter(Column("owner") == owner)
            if let id { request = request.filter(Column("id") == id) }
            return try request.order(Column("paidAt").desc).limit(limit, offset: offset).fetchAll(db)
        }
    }
}
