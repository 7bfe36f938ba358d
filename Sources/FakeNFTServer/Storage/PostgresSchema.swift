/// The PostgreSQL tables: the same migrations as SQLite's ``Schema``, in PostgreSQL's words
/// (names as GRDB writes them, camel case quoted). Each runs once, recorded in `schema_migrations`.
enum PostgresSchema {
    static let migrations: [(name: String, statements: [String])] = [
        (
            "v1",
            [
                """
                CREATE TABLE nft (seq BIGINT PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, images TEXT NOT NULL,
                  rating BIGINT NOT NULL, description TEXT NOT NULL, price DOUBLE PRECISION NOT NULL, author TEXT NOT NULL,
                  website TEXT, "createdAt" TEXT NOT NULL)
                """,
                """
                CREATE TABLE collection (seq BIGINT PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, cover TEXT NOT NULL,
                  nfts TEXT NOT NULL, "nftCount" BIGINT NOT NULL, description TEXT NOT NULL, author TEXT NOT NULL, website TEXT,
                  "createdAt" TEXT NOT NULL)
                """,
                """
                CREATE TABLE "user" (seq BIGINT PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, avatar TEXT NOT NULL,
                  description TEXT, website TEXT NOT NULL, nfts TEXT NOT NULL, "nftCount" BIGINT NOT NULL, rating TEXT NOT NULL)
                """,
                """
                CREATE TABLE currency (seq BIGINT PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL, name TEXT NOT NULL,
                  image TEXT NOT NULL, "paymentSucceeds" BOOLEAN NOT NULL)
                """,
                """
                CREATE TABLE profile (id TEXT PRIMARY KEY, name TEXT NOT NULL, avatar TEXT NOT NULL, description TEXT NOT NULL,
                  website TEXT NOT NULL, nfts TEXT NOT NULL, likes TEXT NOT NULL)
                """,
                "CREATE TABLE orders (id TEXT PRIMARY KEY, nfts TEXT NOT NULL)",
                #"CREATE INDEX user_name ON "user" (name)"#,
            ]
        ),
        (
            "v2-versions",
            [
                "ALTER TABLE profile ADD COLUMN version BIGINT NOT NULL DEFAULT 1",
                "ALTER TABLE orders ADD COLUMN version BIGINT NOT NULL DEFAULT 1",
            ]
        ),
        (
            "v3-accounts",
            [
                """
                CREATE TABLE account ("userID" TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, "emailKey" TEXT NOT NULL UNIQUE,
                  "passwordHash" TEXT NOT NULL, spent DOUBLE PRECISION NOT NULL DEFAULT 0, "createdAt" TEXT NOT NULL)
                """,
                """
                CREATE TABLE session ("tokenHash" TEXT PRIMARY KEY, "userID" TEXT NOT NULL REFERENCES account ("userID") ON DELETE CASCADE,
                  "createdAt" TEXT NOT NULL)
                """,
                #"CREATE INDEX session_by_user ON session ("userID")"#,
            ]
        ),
        (
            "v4-changes",
            [
                "CREATE TABLE store_state (id INTEGER PRIMARY KEY CHECK (id = 1), generation BIGINT NOT NULL)",
                "INSERT INTO store_state (id, generation) VALUES (1, 0)",
                "CREATE TABLE change_log (generation BIGINT PRIMARY KEY, owner TEXT NOT NULL, users BOOLEAN NOT NULL, sessions BOOLEAN NOT NULL)",
            ]
        ),
        ("v5-session-use", [#"ALTER TABLE session ADD COLUMN "lastUsedAt" TEXT NOT NULL DEFAULT ''"#]),
    ]
}
