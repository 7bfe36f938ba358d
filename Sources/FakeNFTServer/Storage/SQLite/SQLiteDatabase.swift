import FakeNFTModels
import Foundation
import GRDB
import Synchronization

/// The store's tables in a SQLite file (WAL), through GRDB: the default and the embedded
/// server's choice. Changes are immediate transactions in GRDB's writer.
///
/// Several processes may open one file (two app windows on one data folder, each with its
/// embedded server, and `fakenft serve` beside them): SQLite serializes their writes, every read
/// first checks the generation (a local query, microseconds), and ``followOtherWriters(_:)`` follows the
/// write-ahead log for other processes' commits, so each server's events follow them.
final class SQLiteDatabase: StoreDatabase {
    private let pool: DatabasePool
    private let isClosed = Mutex(false)
    let name: String
    /// Transactions that wrote changes (a batch is one), since this database was opened.
    let transactions = Atomic<Int>(0)
    /// How often ``followOtherWriters(_:)`` reads the generation even when the log looks unchanged (a
    /// commit within the file system's clock tick that left the log's size as it was).
    static let otherWritersQueryInterval = Duration.seconds(1)
    /// How often it looks at the log where the folder cannot be watched.
    static let otherWritersPolling = Duration.milliseconds(40)

    /// Marks a database that was filled (`PRAGMA user_version`): one that lost its data after
    /// that is refused, never filled again without `reset`.
    static let seededMark = 1

    /// Opens (and migrates) the database at `path`; fills it with `seed()` when it is new or
    /// when `reset` is set. A file that is not a usable FakeNFT database, or one that was filled
    /// and has lost its data, is refused.
    init(path: String, reset: Bool, seed: () throws -> Dataset, paymentOutcomes: [String: Bool]) throws {
        // Processes starting together open, migrate and seed one after the other (GRDB's migrator
        // reads what is applied outside its transactions: two at once applied a migration twice).
        let starting = try FileLock(path: path + "-lock")
        defer { starting.release() }
        if !reset, let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == 0 {
            throw StoreError.damaged(
                "\(path) is an empty file, not a FakeNFT database; move it away, or start with --reset to replace it")
        }
        name = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            let applied = try pool.read { db in
                try db.tableExists("grdb_migrations")
                    ? String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
            }
            let unknown = StorageSchema.unknown(applied)
            guard unknown.isEmpty else { throw StoreError.newerDatabase(database: path, migrations: unknown) }
            try Self.migrator.migrate(pool)
            let seeded = try pool.write { db in
                guard try reset || CurrencyRecord.fetchCount(db) == 0 else { return false }
                if !reset, try Int.fetchOne(db, sql: "PRAGMA user_version") == Self.seededMark {
                    throw StoreError.damaged(
                        """
                        its data is gone (a lost \((path as NSString).lastPathComponent)-wal file?), yet it was \
                        filled before; it is left as it is: restore it, or start with --reset to fill it anew
                        """
                    )
                }
                try Self.replaceAll(with: seed(), db)
                try db.execute(sql: "PRAGMA user_version = \(Self.seededMark)")
                return true
            }
            // The data set into the main file at once: without its -wal, the file still holds it.
            if seeded { _ = try pool.writeWithoutTransaction { try $0.checkpoint(.passive) } }
            if !paymentOutcomes.isEmpty {
                try pool.write { db in
                    for (id, success) in paymentOutcomes {
                        try CurrencyRecord.filter(CurrencyRecord.Columns.id == id)
                            .updateAll(db, CurrencyRecord.Columns.paymentSucceeds.set(to: success))
                    }
                }
            }
            // A database that cannot store changes is told at start, not at the first sign-up.
            try pool.write { db in try db.execute(sql: #"UPDATE "store_state" SET "generation" = "generation""#) }
        } catch let error as DatabaseError where Self.cannotStore(error) != nil {
            throw StoreError.cannotWrite("\(path): \(Self.cannotStore(error) ?? "")")
        } catch let error as DatabaseError {
            throw StoreError.damaged("\(path) is not a usable FakeNFT database (\(error.message ?? error.description))")
        } catch let error as DecodingError {
            throw StoreError.damaged("\(path) holds data the server cannot read (\(error))")
        } catch StoreError.damaged(let why) {
            throw StoreError.damaged("\(path): \(why)")
        }
    }

    /// ``StorageSchema``'s migrations in SQLite's words, each applied once (GRDB records them).
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (name, statements) in StorageSchema.statements(.sqlite) {
            migrator.registerMigration(name) { db in
                for statement in statements { try db.execute(sql: statement) }
            }
        }
        return migrator
    }

    var connectionUse: (inUse: Int, maximum: Int)? { nil }

    func loadAll() async throws -> StoredData {
        try await read { db in
            StoredData(
                nfts: try NFTRecord.order(NFTRecord.Columns.seq).fetchAll(db),
                collections: try CollectionRecord.order(CollectionRecord.Columns.seq).fetchAll(db),
                users: try UserRecord.order(UserRecord.Columns.seq).fetchAll(db),
                currencies: try CurrencyRecord.order(CurrencyRecord.Columns.seq).fetchAll(db),
                profiles: try ProfileRecord.fetchAll(db), orders: try OrderRecord.fetchAll(db),
                sessions: try SessionRecord.fetchAll(db), generation: try Self.generation(db))
        }
    }

    /// One immediate transaction for the batch (one flush to disk for all), each change in a
    /// savepoint of its own: one whose rows the database refuses fails alone. A change is written
    /// only while its owner's rows are, whole, those it was made on (a new owner's while it has
    /// none). Counted in ``transactions``.
    func write(_ changes: [MadeChange]) async -> [Result<Int?, any Error>] {
        transactions.add(1, ordering: .relaxed)
        do {
            return try await write { db in
                changes.map { change in
                    Result {
                        var generation: Int?
                        try db.inSavepoint {
                            guard try Self.stillAsMadeOn(change, db) else { return .rollback }
                            generation = try Self.write(change, db)
                            return .commit
                        }
                        return generation
                    }.mapError(Self.storable)
                }
            }
        } catch {
            return changes.map { _ in .failure(error) }
        }
    }

    func writeLocked(owner: String, _ make: @escaping @Sendable (OwnerRows) throws -> MadeChange) async throws
        -> (made: MadeChange, generation: Int)
    {
        transactions.add(1, ordering: .relaxed)
        return try await write { db in
            let made = try make(try Self.rows(of: owner, db))
            return (made, try Self.write(made, db))
        }
    }

    /// Whether `change`'s owner's rows are those it was made on; for a new owner's, whether it has
    /// none and its row in `/users` is numbered last (and its address has no account: else
    /// ``StoreError/emailTaken``).
    private static func stillAsMadeOn(_ change: MadeChange, _ db: Database) throws -> Bool {
        if let before = change.before { return try rows(of: change.owner, db) == before }
        if let account = change.rows.account,
            try AccountRecord.filter(AccountRecord.Columns.emailKey == account.emailKey).fetchCount(db) > 0
        {
            throw StoreError.emailTaken
        }
        let last = try Int.fetchOne(db, sql: "SELECT MAX(seq) FROM \(UserRecord.databaseTableName)") ?? -1
        return try ProfileRecord.fetchOne(db, key: change.owner) == nil
            && change.rows.user.map { $0.seq == last + 1 } ?? true
    }

    /// Writes the rows `change` changed (a new owner's all),
    /// the sign-ins it added, used or ended, the SSH key it links and the paid order it adds;
    /// counts the change and logs it: its generation.
    private static func write(_ change: MadeChange, _ db: Database) throws -> Int {
        let rows = change.rows
        if let before = change.before {
            if rows.profile != before.profile { try rows.profile.update(db) }
            if rows.order != before.order { try rows.order.update(db) }
            if let account = rows.account, account != before.account { try account.update(db) }
            if let user = rows.user, user != before.user { try user.update(db) }
        } else {
            try rows.account?.insert(db)
            try rows.profile.insert(db)
            try rows.order.insert(db)
            try rows.user?.insert(db)
        }
        let sessions = SessionChanges(from: change.before?.sessions ?? [], to: rows.sessions)
        for ended in sessions.ended { try SessionRecord.deleteOne(db, key: ended) }
        for session in sessions.added { try session.insert(db) }
        for session in sessions.used { try session.update(db) }
        try rows.linksKey?.save(db)
        if let key = rows.unlinksKey { try SSHKeyRecord.deleteOne(db, key: key) }
        if rows.forgetsPaid { try PurchaseRecord.filter(Column("owner") == change.owner).deleteAll(db) }
        try rows.paid?.insert(db)
        return try record(owner: change.owner, users: change.users, sessions: change.sessions, db)
    }

    func owned(by owners: Set<String>) async throws -> [String: OwnerRows] {
        try await read { db in try Dictionary(uniqueKeysWithValues: owners.map { ($0, try Self.rows(of: $0, db)) }) }
    }

    func changes(since generation: Int) async throws -> [ChangeScope]? {
        try await read { db in
            let current = try Self.generation(db)
            let rows = try Row.fetchAll(
                db,
                sql:
                    """
                    SELECT generation, owner, users, sessions FROM change_log WHERE generation > ? AND \
                    generation <= ? ORDER BY generation
                    """,
                arguments: [generation, current])
            let scopes = rows.map { ChangeScope(generation: $0[0], owner: $0[1], users: $0[2], sessions: $0[3]) }
            return scopes.count == current - generation ? scopes : nil
        }
    }

    /// The generation each time it moved since the last look (other processes' commits, and
    /// this one's, which the store already has and skips). Every commit writes the write-ahead
    /// log: when its folder changes (``FolderWatch``), the generation is read if the log's size or
    /// time changed (a `stat`, no query: an idle window stays idle), and at least every
    /// ``otherWritersQueryInterval``.
    func followOtherWriters(_ arrived: @escaping @Sendable (Int, ChangedRows?) -> Void) async {
        let log = name + "-wal"
        let folder = URL(fileURLWithPath: name).deletingLastPathComponent().path
        var seen = try? await pool.read(Self.generation)
        var logLooked = Self.signature(of: log), queried = ContinuousClock.now
        let changes = FolderWatch.changes(
            in: folder, fallback: Self.otherWritersQueryInterval, polling: Self.otherWritersPolling)
        for await _ in changes {
            let logNow = Self.signature(of: log)
            guard logNow != logLooked || ContinuousClock.now - queried >= Self.otherWritersQueryInterval else {
                continue
            }
            (logLooked, queried) = (logNow, ContinuousClock.now)
            guard let now = try? await pool.read(Self.generation), now != seen else { continue }
            seen = now
            arrived(now, nil)
        }
    }

    func answers() async -> Bool { (try? await read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1 }

    func close() async {
        // Once: the checkpoint below would reach a closed connection (a crash in SQLite).
        guard
            !isClosed.withLock({ closed in
                defer { closed = true }
                return closed
            })
        else { return }
        // Everything into the main file, so that it alone holds the data after a clean stop (a
        // copy of it, a lost -wal). Without waiting: where another process's read keeps a part
        // of the log, the next checkpoint copies it.
        _ = try? await pool.writeWithoutTransaction { try $0.checkpoint(.passive) }
        // Closing waits for every read to give its connection back, which an async read does on
        // the cooperative pool: waited for on a thread of its own, so that two stores closing at
        // once on a 2-core machine cannot hold both of the pool's threads while their reads wait.
        let pool = pool
        await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
            Thread {
                try? pool.close()
                closed.resume()
            }.start()
        }
    }

    // MARK: Helpers

    /// A file's identity, size and time of last change (all zero when it is missing).
    private static func signature(of path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [0, 0, 0, 0] }
        return [Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await pool.read(body)
    }

    /// One immediate transaction in GRDB's writer (awaited, so no thread waits for it). A
    /// database that cannot store it throws ``StoreError/cannotWrite(_:)``.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.writeWithoutTransaction { db in
                try db.beginTransaction(.immediate)
                do {
                    let result = try body(db)
                    try db.commit()
                    return result
                } catch {
                    try? db.rollback()
                    throw error
                }
            }
        } catch {
            throw Self.storable(error)
        }
    }

    /// `error` as ``StoreError/cannotWrite(_:)`` when it says the database cannot store
    /// anything now, else as it is.
    private static func storable(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError, let why = cannotStore(error) else { return error }
        return StoreError.cannotWrite(why)
    }

    /// Why nothing can be stored, when `error` says so: a full disk, a read-only file or
    /// folder, a failing disk.
    private static func cannotStore(_ error: DatabaseError) -> String? {
        switch error.resultCode {
        case .SQLITE_FULL: "the disk is full"
        case .SQLITE_READONLY: "the database is read-only"
        case .SQLITE_IOERR, .SQLITE_CANTOPEN: "the disk cannot be written (\(error.message ?? "I/O error"))"
        default: nil
        }
    }

    static func rows(of owner: String, _ db: Database) throws -> OwnerRows {
        guard let profile = try ProfileRecord.fetchOne(db, key: owner),
            let order = try OrderRecord.fetchOne(db, key: owner)
        else {
            throw StoreError.damaged("the database has no profile or no order '\(owner)'")
        }
        guard owner != Owner.shared, let account = try AccountRecord.fetchOne(db, key: owner) else {
            return OwnerRows(profile: profile, order: order)
        }
        return OwnerRows(
            profile: profile, order: order, account: account,
            user: try UserRecord.filter(UserRecord.Columns.id == owner).fetchOne(db),
            sessions: try SessionRecord.filter(SessionRecord.Columns.userID == owner).fetchAll(db))
    }

    static func generation(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT generation FROM store_state WHERE id = 1") ?? 0
    }

    /// Counts a change and records what it touched (keeping the last ``StorageSchema/changeLogLength``).
    static func record(owner: String, users: Bool, sessions: Bool, _ db: Database) throws -> Int {
        let generation = try generation(db) + 1
        try db.execute(
            sql: "UPDATE store_state SET generation = ? WHERE id = 1", arguments: [generation])
        try db.execute(
            sql:
                "INSERT INTO change_log (generation, owner, users, sessions) VALUES (?, ?, ?, ?)",
            arguments: [generation, owner, users, sessions])
        if generation % 1_000 == 0 {
            try db.execute(
                sql: "DELETE FROM change_log WHERE generation <= ?",
                arguments: [generation - StorageSchema.changeLogLength])
        }
        return generation
    }

    /// Replaces all data with `dataset`; the change log starts again (readers reload everything).
    private static func replaceAll(with dataset: Dataset, _ db: Database) throws {
        for table in [
            NFTRecord.databaseTableName, CollectionRecord.databaseTableName, UserRecord.databaseTableName,
            CurrencyRecord.databaseTableName, SessionRecord.databaseTableName, AccountRecord.databaseTableName,
            ProfileRecord.databaseTableName, OrderRecord.databaseTableName, "change_log",
        ] {
            try db.execute(sql: "DELETE FROM \(table)")
        }
        for (seq, nft) in dataset.nfts.enumerated() { try NFTRecord(seq: seq, nft).insert(db) }
        for (seq, collection) in dataset.collections.enumerated() {
            try CollectionRecord(seq: seq, collection).insert(db)
        }
        for (seq, user) in dataset.users.enumerated() { try UserRecord(seq: seq, user).insert(db) }
        for (seq, currency) in dataset.currencies.enumerated() {
            try CurrencyRecord(seq: seq, currency, paymentSucceeds: dataset.paymentSucceeds[currency.id] ?? true)
                .insert(db)
        }
        try ProfileRecord(dataset.profile).insert(db)
        try OrderRecord(dataset.order).insert(db)
        try db.execute(sql: "UPDATE store_state SET generation = generation + 1 WHERE id = 1")
    }
}
