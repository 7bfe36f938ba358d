import FakeNFTModels
import Logging
import PostgresNIO

extension PostgresDatabase {
    /// Taken while migrating and seeding, so that servers starting together do it once.
    private static let setupLock = 0x46414B45  // "FAKE"

    /// Migrates, seeds when empty (or on `reset`) and sets payment outcomes in one transaction on
    /// `connection`, under an advisory lock, so that servers starting together do it once.
    static func setUp(
        on connection: PostgresConnection, reset: Bool, seed: @escaping @Sendable () throws -> Dataset,
        paymentOutcomes: [String: Bool], logger: Logger
    ) async throws {
        do {
            try await connection.withTransaction(logger: logger) { db in
                try await db.query("SELECT pg_advisory_xact_lock(\(Self.setupLock))", logger: Self.quiet)
                try await db.query(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY)", logger: Self.quiet)
                let done = Set(
                    try await db.query("SELECT name FROM schema_migrations", logger: Self.quiet).decode(String.self)
                        .array()
                )
                let unknown = StorageSchema.unknown(done)
                guard unknown.isEmpty else {
                    throw StoreError.newerDatabase(database: "the PostgreSQL database", migrations: unknown)
                }
                for migration in StorageSchema.statements(.postgres) where !done.contains(migration.name) {
                    for statement in migration.statements {
                        try await db.query(PostgresQuery(unsafeSQL: statement), logger: Self.quiet)
                    }
                    try await db.query(
                        "INSERT INTO schema_migrations (name) VALUES (\(migration.name))", logger: Self.quiet)
                }
                // the writers of rows, made from the tables' columns as the migrations left them
                try await db.query("SELECT fakenft_refresh_writers()", logger: Self.quiet)
                let empty =
                    try await db.query("SELECT COUNT(*) FROM currency", logger: Self.quiet).decode(Int.self).array()
                    == [0]
                if reset || empty { try await Self.replaceAll(with: seed(), db) }
                for (id, success) in paymentOutcomes {
                    try await db.query(
                        #"UPDATE currency SET "paymentSucceeds" = \#(success) WHERE id = \#(id)"#, logger: Self.quiet)
                }
            }
        } catch let error where cannotStore(error) != nil {  // told at start, not at the first sign-up
            throw StoreError.cannotWrite("the PostgreSQL database: \(cannotStore(error) ?? "")")
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error
        }
    }
}
