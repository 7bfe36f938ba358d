/// The server's tables and their migrations, declared once: SQLite gets its SQL through GRDB's
/// migrator (``sqliteMigrator``), PostgreSQL through `schema_migrations` (``PostgresDatabase``).
/// A new column is one ``Step/add(_:to:)`` in a new migration (plus its field in the record).
/// Databases made by earlier versions are migrated in place; a migration, once released, never
/// changes: each is written in literals (`MigrationTextTests` holds the text of every one shipped).
enum StorageSchema {
    /// A column's kind, named in each database's words.
    enum Kind {
        case integer, text, double, boolean
    }

    /// One column; `defaultValue` is an SQL literal, the same in both databases.
    struct Column {
        var name: String
        var kind: Kind
        var notNull = true
        var unique = false
        var primaryKey = false
        var defaultValue: String?
        /// `table.column` of a row this one belongs to (deleted with it).
        var references: (table: String, column: String)?
        /// An SQL condition every value must meet.
        var check: String?
    }

    /// What a migration does, in order.
    enum Step {
        case create(table: String, columns: [Column])
        case add(Column, to: String)
        case index(name: String, table: String, columns: [String])
        /// Statements both databases read alike, or that `only` one has (PostgreSQL's functions).
        case statements([String], only: Dialect? = nil)
    }

    static let migrations: [(name: String, steps: [Step])] = [
        (
            "v1",
            [
                .create(
                    table: "nft",
                    columns: [
                        seq, id, text("name"), text("images"), .init(name: "rating", kind: .integer),
                        text("description"), .init(name: "price", kind: .double), text("author"),
                        text("website", null: true), text("createdAt"),
                    ]),
                .create(
                    table: "collection",
                    columns: [
                        seq, id, text("name"), text("cover"), text("nfts"), .init(name: "nftCount", kind: .integer),
                        text("description"), text("author"), text("website", null: true), text("createdAt"),
                    ]),
                .create(
                    table: "user",
                    columns: [
                        seq, id, text("name"), text("avatar"), text("description", null: true), text("website"),
                        text("nfts"), .init(name: "nftCount", kind: .integer), text("rating"),
                    ]),
                .create(
                    table: "currency",
                    columns: [
                        seq, id, text("title"), text("name"), text("image"),
                        .init(name: "paymentSucceeds", kind: .boolean),
                    ]),
                .create(
                    table: "profile",
                    columns: [
                        .init(name: "id", kind: .text, primaryKey: true), text("name"), text("avatar"),
                        text("description"), text("website"), text("nfts"), text("likes"),
                    ]),
                .create(table: "orders", columns: [.init(name: "id", kind: .text, primaryKey: true), text("nfts")]),
                .index(name: "user_name", table: "user", columns: ["name"]),
            ]
        ),
        // Versions for optimistic concurrency (ETag / If-Match).
        (
            "v2-versions",
            ["profile", "orders"].map { .add(.init(name: "version", kind: .integer, defaultValue: "1"), to: $0) }
        ),
        // Accounts: each has a profile and an order of its own (rows keyed by its user id) and a
        // row in the users table; sessions hold token hashes.
        (
            "v3-accounts",
            [
                .create(
                    table: "account",
                    columns: [
                        .init(name: "userID", kind: .text, primaryKey: true), text("name"), text("email"),
                        .init(name: "emailKey", kind: .text, unique: true), text("passwordHash"),
                        .init(name: "spent", kind: .double, defaultValue: "0"), text("createdAt"),
                    ]),
                .create(
                    table: "session",
                    columns: [
                        .init(name: "tokenHash", kind: .text, primaryKey: true),
                        .init(name: "userID", kind: .text, references: ("account", "userID")), text("createdAt"),
                    ]),
                .index(name: "session_by_user", table: "session", columns: ["userID"]),
            ]
        ),
        // A counter of committed changes and what each touched, so that a server can tell
        // whether its read model is behind the database (several servers on one database).
        (
            "v4-changes",
            [
                .create(
                    table: "store_state",
                    columns: [
                        .init(name: "id", kind: .integer, primaryKey: true, check: #""id" = 1"#),
                        .init(name: "generation", kind: .integer),
                    ]),
                .statements([#"INSERT INTO "store_state" ("id", "generation") VALUES (1, 0)"#]),
                .create(
                    table: "change_log",
                    columns: [
                        .init(name: "generation", kind: .integer, primaryKey: true), text("owner"),
                        .init(name: "users", kind: .boolean), .init(name: "sessions", kind: .boolean),
                    ]),
            ]
        ),
        // When each session was last used, so that idle ones expire.
        ("v5-session-use", [.add(.init(name: "lastUsedAt", kind: .text, defaultValue: "''"), to: "session")]),
        // A change in one round trip, its notification carrying its rows, so that other servers
        // need not read it back (PostgreSQL only: SQLite is in the server's process). It replaces
        // the function of `v6-change-in-one-call`, which it drops where that ran.
        (
            "v7-change-notifies-its-rows",
            [.statements([PostgresFunctions.v7DropV6, PostgresFunctions.v7Change], only: .postgres)]
        ),
        // Changes that come together in one call and one commit (``ChangeBatches``), so that they
        // share one flush to disk instead of waiting for each other's count of the generation.
        ("v8-changes-in-batches", [.statements([PostgresFunctions.v8Batch], only: .postgres)]),
        // One change function for a lone change and a batch, reading each row whole as JSON keyed
        // by its columns (``PostgresChange``) instead of 24 arguments by position.
        (
            "v9-changes-as-rows",
            [.statements(PostgresFunctions.v9DropV7AndV8 + [PostgresFunctions.v9Changes], only: .postgres)]
        ),
        // The keys visitors of the shop over SSH sign in with, each opening one account.
        (
            "v10-ssh-keys",
            [
                .create(
                    table: "ssh_key",
                    columns: [
                        .init(name: "fingerprint", kind: .text, primaryKey: true),
                        .init(name: "userID", kind: .text, references: ("account", "userID")), text("createdAt"),
                    ]),
                .index(name: "ssh_key_by_user", table: "ssh_key", columns: ["userID"]),
            ]
        ),
        // What the app keeps for each SSH key between visits (`SSHVisitorState`), where every server
        // of a deployment reads it.
        (
            "v11-ssh-visitor-state",
            [
                .create(
                    table: "ssh_visitor",
                    columns: [
                        .init(name: "fingerprint", kind: .text, primaryKey: true), text("state"), text("updatedAt"),
                    ])
            ]
        ),
        // Whether an account's row shows in `/users`: one made for an SSH key only once the key has
        // done something (a like, the cart, a purchase, a profile edit), so that keys cannot fill
        // the rating.
        (
            "v12-unlisted-users",
            [
                .add(.init(name: "listed", kind: .boolean, defaultValue: "TRUE"), to: "user"),
                .statements([PostgresFunctions.v12Changes], only: .postgres),
            ]
        ),
        // Each paid order (``PurchaseRecord``), written in the payment's transaction; on
        // PostgreSQL changes written by functions made from the tables' columns at each start
        // (``PostgresFunctions/v13Writers``), so that a new column is one `add` step, with no
        // function to ship again.
        (
            "v13-paid-orders",
            [
                .create(
                    table: "purchase",
                    columns: [
                        .init(name: "id", kind: .text, primaryKey: true), text("owner"), text("paidAt"),
                        text("currencyId"), text("currencyName"), text("items"), .init(name: "total", kind: .double),
                    ]),
                .index(name: "purchase_by_owner", table: "purchase", columns: ["owner", "paidAt"]),
                .statements([PostgresFunctions.v13Writers, PostgresFunctions.v13Write], only: .postgres),
            ]
        ),
        // What each account is (``AccountKind``): the SSH front's own accounts were told apart by
        // their addresses, which a person could sign up in a look-alike spelling of. Accounts made
        // before are told by their addresses' keys and their passwords, which only the server's
        // own lack.
        (
            "v14-account-kinds",
            [
                .add(.init(name: "kind", kind: .text, defaultValue: "'person'"), to: "account"),
                .statements([
                    #"UPDATE "account" SET "kind" = 'key' WHERE "passwordHash" = '!key-only' "#
                        + #"AND "emailKey" LIKE 'key-%@ssh.invalid'"#,
                    #"UPDATE "account" SET "kind" = 'guest' WHERE "passwordHash" = '!key-only' "#
                        + #"AND "emailKey" LIKE 'guest-%@guest.ssh.invalid'"#,
                ]),
            ]
        ),
        // The apps' usage events counted by day, event, screen, action and item (``UsageDatabase``):
        // no person, no address; a server adds its counts to those of the others.
        (
            "v15-usage-counts",
            [
                .statements([
                    #"CREATE TABLE "usage_count" ("day" TEXT NOT NULL, "event" TEXT NOT NULL, "#
                        + #""screen" TEXT NOT NULL, "action" TEXT NOT NULL, "item" TEXT NOT NULL, "#
                        + #""count" BIGINT NOT NULL, PRIMARY KEY ("day", "event", "screen", "action", "item"))"#
                ])
            ]
        ),
        // Sign-ups, sign-ins, sign-outs and key links written as every other change, by one
        // function on PostgreSQL (``PostgresFunctions/v16Apply``), with the rows of sign-ins and
        // keys among those it writes (``PostgresFunctions/v16Writers``). No table changes.
        (
            "v16-accounts-as-changes",
            [.statements([PostgresFunctions.v16Writers, PostgresFunctions.v16Apply], only: .postgres)]
        ),
        // Tokens an account makes for its scripts (`token create`): a sign-in with a name, which
        // never idles out, and perhaps a time it ends. PostgreSQL's writers take the new columns
        // at the next start (``PostgresFunctions/v16Writers``).
        (
            "v17-named-tokens",
            [
                .add(.init(name: "name", kind: .text, defaultValue: "''"), to: "session"),
                .add(.init(name: "expiresAt", kind: .text, defaultValue: "''"), to: "session"),
            ]
        ),
    ]

    private static let seq = Column(name: "seq", kind: .integer, primaryKey: true)
    private static let id = Column(name: "id", kind: .text, unique: true)
    private static func text(_ name: String, null: Bool = false) -> Column {
        Column(name: name, kind: .text, notNull: !null)
    }
}

/// The SQL of each step, in the words of one database.
extension StorageSchema {
    enum Dialect {
        case sqlite, postgres
    }

    /// Each migration's statements in `dialect`'s SQL (a migration with none there is left out).
    /// Migrations earlier servers applied that later ones replaced (v7 drops v6's function):
    /// known, though no longer run.
    static let retired: Set<String> = ["v6-change-in-one-call"]

    /// The names in `applied` that are none of this server's migrations (a newer server's), in order.
    static func unknown(_ applied: some Sequence<String>) -> [String] {
        let known = Set(migrations.map(\.name)).union(retired)
        return applied.filter { !known.contains($0) }.sorted()
    }

    static func statements(_ dialect: Dialect) -> [(name: String, statements: [String])] {
        migrations.map { ($0.name, $0.steps.flatMap { sql($0, dialect) }) }.filter { !$0.statements.isEmpty }
    }

    /// The names of `table`'s columns after every migration, in order.
    static func columns(of table: String) -> [String] {
        migrations.flatMap(\.steps).reduce(into: []) { columns, step in
            switch step {
            case .create(table, let created): columns = created.map(\.name)
            case .add(let column, table): columns.append(column.name)
            default: break
            }
        }
    }

    /// The statements of `step` in `dialect`'s SQL.
    static func sql(_ step: Step, _ dialect: Dialect) -> [String] {
        switch step {
        case .create(let table, let columns):
            return [
                "CREATE TABLE \(quoted(table)) (\(columns.map { definition($0, dialect) }.joined(separator: ", ")))"
            ]
        case .add(let column, let table):
            return ["ALTER TABLE \(quoted(table)) ADD COLUMN \(definition(column, dialect))"]
        case .index(let name, let table, let columns):
            return ["CREATE INDEX \(quoted(name)) ON \(quoted(table)) (\(columns.map(quoted).joined(separator: ", ")))"]
        case .statements(let statements, let only):
            return only == nil || only == dialect ? statements : []
        }
    }

    private static func definition(_ column: Column, _ dialect: Dialect) -> String {
        var words = [quoted(column.name), typeName(column.kind, dialect)]
        if column.primaryKey { words.append("PRIMARY KEY") }
        if column.notNull { words.append("NOT NULL") }
        if column.unique { words.append("UNIQUE") }
        if let value = column.defaultValue { words.append("DEFAULT \(value)") }
        if let check = column.check { words.append("CHECK (\(check))") }
        if let (table, key) = column.references {
            words.append("REFERENCES \(quoted(table)) (\(quoted(key))) ON DELETE CASCADE")
        }
        return words.joined(separator: " ")
    }

    /// SQLite's `INTEGER PRIMARY KEY` is the row id (64 bits); PostgreSQL's `BIGINT` holds what it holds.
    private static func typeName(_ kind: Kind, _ dialect: Dialect) -> String {
        switch (kind, dialect) {
        case (.integer, .sqlite): "INTEGER"
        case (.integer, .postgres): "BIGINT"
        case (.text, _): "TEXT"
        case (.double, .sqlite): "DOUBLE"
        case (.double, .postgres): "DOUBLE PRECISION"
        case (.boolean, _): "BOOLEAN"
        }
    }

    /// A name as both databases read it exactly (`user` is a keyword in PostgreSQL; camel case
    /// would be folded to lower case unquoted).
    private static func quoted(_ name: String) -> String { "\"\(name)\"" }
}

extension StorageSchema {
    /// How many changes `change_log` holds (each change's ``ChangeScope``, counted in
    /// `store_state`): a server further behind reads everything again.
    static let changeLogLength = 10_000
}
