import GRDB

/// The tables and their migrations. Databases made by earlier versions are migrated in place.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: NFTRecord.databaseTableName) { t in
                t.primaryKey("seq", .integer)
                t.column("id", .text).notNull().unique()
                t.column("name", .text).notNull()
                t.column("images", .text).notNull()
                t.column("rating", .integer).notNull()
                t.column("description", .text).notNull()
                t.column("price", .double).notNull()
                t.column("author", .text).notNull()
                t.column("website", .text)
                t.column("createdAt", .text).notNull()
            }
            try db.create(table: CollectionRecord.databaseTableName) { t in
                t.primaryKey("seq", .integer)
                t.column("id", .text).notNull().unique()
                t.column("name", .text).notNull()
                t.column("cover", .text).notNull()
                t.column("nfts", .text).notNull()
                t.column("nftCount", .integer).notNull()
                t.column("description", .text).notNull()
                t.column("author", .text).notNull()
                t.column("website", .text)
                t.column("createdAt", .text).notNull()
            }
            try db.create(table: UserRecord.databaseTableName) { t in
                t.primaryKey("seq", .integer)
                t.column("id", .text).notNull().unique()
                t.column("name", .text).notNull()
                t.column("avatar", .text).notNull()
                t.column("description", .text)
                t.column("website", .text).notNull()
                t.column("nfts", .text).notNull()
                t.column("nftCount", .integer).notNull()
                t.column("rating", .text).notNull()
            }
            try db.create(table: CurrencyRecord.databaseTableName) { t in
                t.primaryKey("seq", .integer)
                t.column("id", .text).notNull().unique()
                t.column("title", .text).notNull()
                t.column("name", .text).notNull()
                t.column("image", .text).notNull()
                t.column("paymentSucceeds", .integer).notNull()
            }
            try db.create(table: ProfileRecord.databaseTableName) { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("avatar", .text).notNull()
                t.column("description", .text).notNull()
                t.column("website", .text).notNull()
                t.column("nfts", .text).notNull()
                t.column("likes", .text).notNull()
            }
            try db.create(table: OrderRecord.databaseTableName) { t in
                t.primaryKey("id", .text)
                t.column("nfts", .text).notNull()
            }
            try db.create(
                index: "user_rating", on: UserRecord.databaseTableName,
                expressions: [cast(UserRecord.Columns.rating, as: .integer)])
            try db.create(index: "user_name", on: UserRecord.databaseTableName, columns: ["name"])
        }
        // Versions for optimistic concurrency (ETag / If-Match).
        migrator.registerMigration("v2-versions") { db in
            for table in [ProfileRecord.databaseTableName, OrderRecord.databaseTableName] {
                try db.alter(table: table) { t in t.add(column: "version", .integer).notNull().defaults(to: 1) }
            }
        }
        // Accounts: each has a profile and an order of its own (rows keyed by its user id) and a
        // row in the users table; sessions hold token hashes.
        migrator.registerMigration("v3-accounts") { db in
            try db.create(table: AccountRecord.databaseTableName) { t in
                t.primaryKey("userID", .text)
                t.column("name", .text).notNull()
                t.column("email", .text).notNull()
                t.column("emailKey", .text).notNull().unique()
                t.column("passwordHash", .text).notNull()
                t.column("spent", .double).notNull().defaults(to: 0)
                t.column("createdAt", .text).notNull()
            }
            try db.create(table: SessionRecord.databaseTableName) { t in
                t.primaryKey("tokenHash", .text)
                t.column("userID", .text).notNull().indexed()
                    .references(AccountRecord.databaseTableName, column: "userID", onDelete: .cascade)
                t.column("createdAt", .text).notNull()
            }
        }
        // A counter of committed changes and what each touched, so that a server can tell
        // whether its read model is behind the database (several servers on one database).
        migrator.registerMigration("v4-changes") { db in
            try db.create(table: ChangeRecords.state) { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("generation", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO \(ChangeRecords.state) (id, generation) VALUES (1, 0)")
            try db.create(table: ChangeRecords.log) { t in
                t.primaryKey("generation", .integer)
                t.column("owner", .text).notNull()
                t.column("users", .boolean).notNull()
                t.column("sessions", .boolean).notNull()
            }
        }
        // When each session was last used, so that idle ones expire.
        migrator.registerMigration("v5-session-use") { db in
            try db.alter(table: SessionRecord.databaseTableName) { t in
                t.add(column: "lastUsedAt", .text).notNull().defaults(to: "")
            }
        }
        return migrator
    }
}

/// The tables that count and record committed changes (``ChangeScope``).
enum ChangeRecords {
    static let state = "store_state"
    static let log = "change_log"
    /// How many changes the log keeps: a server further behind reads everything again.
    static let kept = 10_000
}
