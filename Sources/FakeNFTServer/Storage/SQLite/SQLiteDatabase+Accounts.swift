import GRDB

/// Accounts, paid orders and SSH visitors in the SQLite file, read on demand: its
/// ``AccountDatabase`` part.
extension SQLiteDatabase {
    func account(_ lookup: AccountLookup) async throws -> AccountRecord? {
        try await read { db in
            switch lookup {
            case .emailKey(let key):
                try AccountRecord.filter(AccountRecord.Columns.emailKey == key).fetchOne(db)
            case .userID(let id):
                try AccountRecord.fetchOne(db, key: id)
            case .key(let fingerprint):
                try SSHKeyRecord.fetchOne(db, key: fingerprint).flatMap {
                    try AccountRecord.fetchOne(db, key: $0.userID)
                }
            }
        }
    }

    func keys(of userID: String) async throws -> [SSHKeyRecord] {
        try await read { db in
            try SSHKeyRecord.filter(Column("userID") == userID).order(Column("createdAt"), Column("fingerprint"))
                .fetchAll(db)
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

    func purchases(of owner: String, id: String?, offset: Int, limit: Int) async throws -> [PurchaseRecord] {
        try await read { db in
            var request = PurchaseRecord.filter(Column("owner") == owner)
            if let id { request = request.filter(Column("id") == id) }
            return try request.order(Column("paidAt").desc).limit(limit, offset: offset).fetchAll(db)
        }
    }
}
