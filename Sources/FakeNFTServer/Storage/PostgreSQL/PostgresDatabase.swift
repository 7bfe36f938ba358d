import FakeNFTModels
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The store's tables in PostgreSQL, through postgres-nio's connection pool: for several
/// servers on one database. A batch of changes is one call of `fakenft_apply` (one round trip,
/// one commit), which writes each only if its rows are still at the versions it was made on,
/// counts it, logs it and notifies every server (docs/storage.md, "A change", has the steps).
final class PostgresDatabase: StoreDatabase {
    static let channel = "fakenft_changes"

    private let client: PostgresClient
    private let address: PostgresAddress
    private let running: BackgroundJobs.Job
    /// The server's: the query deadlines.
    private let deadlines: Deadlines
    private let listenConfiguration: PostgresConnection.Configuration
    private let logger: Logger
    private let leased = Atomic<Int>(0)
    private let maximumConnections: Int
    /// This server among the database's writers: its own changes' notifications are not read again.
    private let writer = UUID().uuidString
    /// Connects to `url`, migrates the database and seeds it when it is new (or when `reset`).
    init(
        url: String, reset: Bool, seed: @escaping @Sendable () throws -> Dataset, paymentOutcomes: [String: Bool],
        deadlines: Deadlines, logger: Logger
    ) async throws {
        let address: PostgresAddress
        var configuration: PostgresClient.Configuration
        var listenConfiguration: PostgresConnection.Configuration
        do {
            address = try PostgresAddress(url)
            configuration = try address.clientConfiguration()
            listenConfiguration = try address.connectionConfiguration()
        } catch { throw StoreError.damaged(error.description) }
        configuration.options.connectTimeout = .seconds(5)
        // Idle connections are pinged only when the address asks: PostgresNIO sets a keep-alive
        // timer each time a connection is handed back and cancels it when it is taken, about a
        // twelfth of a write's CPU. (Keeping the whole pool open would spare its idle timer too,
        // but PostgresNIO 1.33 traps when a connection is asked for while those it keeps open
        // reconnect, as after a PostgreSQL restart.)
        configuration.options.maximumConnections = address.poolSize
        configuration.options.keepAliveBehavior = address.keepaliveSeconds.map {
            .init(frequency: .seconds($0))
        }
        listenConfiguration.options.connectTimeout = .seconds(5)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        // The pool's own loop, begun by the time the pool is first used: a job of the server's
        // (the store answers before the server's service group runs); after an outage it may not
        // end when cancelled, so a close bounds its wait (``Store/close(within:)``).
        let running = deadlines.jobs.start(.postgresPool) { await client.run() }
        // One connection first, which migrates and seeds: the pool retries a refused one for a
        // minute and then says only that it gave up; this says why (the server's reason, or what
        // TLS found) at once.
        do {
            let first = try await PostgresConnection.connect(
                configuration: listenConfiguration, id: 0, logger: Self.quiet)
            do {
                try await Self.setUp(
                    on: first, reset: reset, seed: seed, paymentOutcomes: paymentOutcomes, logger: logger)
            } catch {
                try? await first.close()
                throw error
            }
            try await first.close()
        } catch {
            running.cancel()
            throw Self.explained(error, address)
        }
        self.address = address
        self.listenConfiguration = listenConfiguration
        self.logger = logger
        maximumConnections = configuration.options.maximumConnections
        self.client = client
        self.running = running
        self.deadlines = deadlines
    }

    var name: String { address.description }
    var connectionUse: (inUse: Int, maximum: Int)? { (leased.load(ordering: .relaxed), maximumConnections) }

    func close() async {
        running.cancel()
        await running.ended()
    }

    // MARK: Reading

    func loadAll() async throws -> StoredData {
        return try await connection(bounded: false) { db in  // the whole database, at start: a large one takes its time
            // The generation first: what is read after it is at least that new.
            let generation = try await Self.generation(db)
            return StoredData(
                nfts: try await Self.all(db), collections: try await Self.all(db), users: try await Self.all(db),
                currencies: try await Self.all(db), profiles: try await Self.rows(where: "id", is: nil, db),
                orders: try await Self.rows(where: "id", is: nil, db),
                sessions: try await Self.rows(where: "tokenHash", is: nil, db), generation: generation)
        }
    }

    func owned(by owners: Set<String>) async throws -> [String: OwnerRows] {
        let rows = try await connection { db in try await Self.rows(of: owners, db) }
        guard rows.count == owners.count else {
            throw StoreError.damaged("the database has no profile or no order for one of \(owners.sorted())")
        }
        return rows
    }

    func changes(since generation: Int) async throws -> [ChangeScope]? {
        try await connection { db in
            // one round trip: the counter, and the log's entries up to it (none: a row of NULLs)
            var current = generation
            var scopes: [ChangeScope] = []
            for try await (counted, logged, owner, users, sessions) in try await db.query(
                """
                SELECT s.generation, l.generation, l.owner, l.users, l.sessions FROM store_state s
                  LEFT JOIN change_log l ON l.generation > \(generation) AND l.generation <= s.generation
                  WHERE s.id = 1 ORDER BY l.generation
                """, logger: Self.quiet
            ).decode((Int, Int?, String?, Bool?, Bool?).self) {
                current = counted
                guard let logged, let owner, let users, let sessions else { continue }
                scopes.append(ChangeScope(generation: logged, owner: owner, users: users, sessions: sessions))
            }
            return scopes.count == current - generation ? scopes : nil
        }
    }

    /// Listens on a connection of its own (``listen(_:)``).
    func followOtherWriters(_ arrived: @escaping @Sendable (Int, ChangedRows?) -> Void) async {
        await listen(arrived)
    }

    func answers() async -> Bool {
        (try? await connection { db in try await db.query("SELECT 1", logger: Self.quiet).decode(Int.self).array().first
        }) == 1
    }

    // MARK: Writing

    /// `changes` in one call (one commit); when the database refuses the batch (not when it is
    /// unavailable), each change alone, so that one change it refuses fails no other.
    func write(_ changes: [MadeChange]) async -> [Result<Int?, any Error>] {
        do {
            let calls = try changes.map(PostgresChange.init)
            return try await connection { [writer] db in try await Self.write(calls, writer: writer, db) }
        } catch {
            if changes.count == 1 || error is StoreError { return changes.map { _ in .failure(error) } }
            logger.warning(
                "a batch of \(changes.count) changes was refused, each written alone: \(String(reflecting: error))")
            var answers: [Result<Int?, any Error>] = []
            for change in changes { answers += await write([change]) }
            return answers
        }
    }

    /// In a transaction that locks the owner's rows as it reads them, written through the same
    /// call as every change (``PostgresChange``) before its commit.
    func writeLocked(owner: String, _ make: @escaping @Sendable (OwnerRows) throws -> MadeChange) async throws
        -> (made: MadeChange, generation: Int)
    {
        try await transaction { [writer] db in
            let made = try make(try await Self.lockedRows(of: owner, db))
            // the same call as every change, on rows that cannot have moved on: they are locked
            guard let generation = try await Self.write([PostgresChange(made)], writer: writer, db).first?.get() else {
                throw StoreError.damaged("rows locked for a change moved on under it")
            }
            return (made, generation)
        }
    }
}

extension PostgresDatabase {
    /// The connection a query was given, once it has one: whether it has closed.
    private final class LeasedConnection: Sendable {
        private let leased = Mutex<PostgresConnection?>(nil)

        var connection: PostgresConnection? {
            get { leased.withLock { $0 } }
            set { leased.withLock { $0 = newValue } }
        }

        var closed: Bool { connection?.isClosed ?? false }
    }
}

// MARK: - Connections, setup and notifications

extension PostgresDatabase {
    /// Runs `body` on a pooled connection (counted for `/metrics`). A database that does not
    /// answer within the address's ``PostgresAddress/queryTimeout`` (none when `bounded` is
    /// false), or a lost connection, is ``StoreError/unavailable(_:)``; what
    /// the database itself refuses stays as it is. A query on a connection that closed under it
    /// is given up at once: across a PostgreSQL restart such a query was seen never to answer,
    /// holding its owner's later changes for the whole time-out.
    func connection<T: Sendable>(
        bounded: Bool = true,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        leased.add(1, ordering: .relaxed)
        defer { leased.subtract(1, ordering: .relaxed) }
        let client = client
        do {
            guard bounded else {
                return try await client.withConnection { connection in try await body(connection) }
            }
            let timeout = address.queryTimeout
            let leased = LeasedConnection()
            return try await withDeadline(
                timeout, expired: { StoreError.unavailable("no answer in \(timeout)") },
                abandoned: { leased.closed ? StoreError.unavailable("the database closed the connection") : nil },
                deadlines: deadlines
            ) {
                try await client.withConnection { connection in
                    leased.connection = connection
                    return try await body(connection)
                }
            }
        } catch let error as StoreError {
            throw error
        } catch let error where Self.cannotStore(error) != nil {
            throw StoreError.cannotWrite(Self.cannotStore(error) ?? "")
        } catch let error as PSQLError where error.code == .server && !Self.saysUnavailable(error) {
            throw error
        } catch let error as PostgresTransactionError where !Self.saysUnavailable(error) {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw StoreError.unavailable(String(describing: error))
        }
    }

    /// Whether `error` is the database saying it cannot serve now (its connections ended by an
    /// administrator or a shutdown, no connections allowed, too many: SQLSTATE classes 08 and 57P,
    /// 55000, 53300; or the connection failing under a transaction), not refusing the request.
    static func saysUnavailable(_ error: any Error) -> Bool {
        if let error = error as? PostgresTransactionError {
            return [error.beginError, error.closureError, error.commitError, error.rollbackError]
                .contains { $0.map(saysUnavailable) ?? false }
        }
        guard let error = error as? PSQLError else { return false }
        guard error.code == .server else { return true }  // the connection failed, not the request
        let state = error.serverInfo?[.sqlState] ?? ""
        return state.hasPrefix("08") || state.hasPrefix("57P") || state == "55000" || state == "53300"
    }

    /// Why nothing can be stored, when `error` is the database saying so: its disk full
    /// (SQLSTATE 53100), a read-only transaction (25006: a standby, `default_transaction_read_only`).
    static func cannotStore(_ error: any Error) -> String? {
        if let error = error as? PostgresTransactionError {
            return [error.beginError, error.closureError, error.commitError].lazy.compactMap { $0.flatMap(cannotStore) }
                .first
        }
        guard let error = error as? PSQLError, error.code == .server else { return nil }
        switch error.serverInfo?[.sqlState] {
        case "53100": return "the database's disk is full"
        case "25006": return "the database is read-only"
        default: return nil
        }
    }

    /// Runs `body` in one transaction on a pooled connection: committed when it returns, rolled
    /// back when it throws.
    func transaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await connection { [logger] db in
                try await db.withTransaction(logger: logger) { db in try await body(db) }
            }
        } catch let error as PostgresTransactionError {
            if let closureError = error.closureError { throw closureError }
            throw error
        }
    }

    /// Follows `NOTIFY` on a connection of its own, reconnecting with backoff: hands `arrived`
    /// each other server's change (with its rows when its notification carried rows that read),
    /// and after each (re)connection `Int.max`, so changes missed meanwhile are read too.
    private func listen(_ arrived: @escaping @Sendable (Int, ChangedRows?) -> Void) async {
        var delay = Duration.milliseconds(100)
        var id = 1
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: listenConfiguration, id: id, logger: Self.quiet)
                id += 1
                delay = .milliseconds(100)
                try await withTaskCancellationHandler {
                    try await connection.listen(on: Self.channel) { notifications in
                        arrived(.max, nil)  // whatever was missed while not listening
                        for try await notification in notifications {
                            let change = NotifiedChange(notification.payload)
                            guard change.writer != writer else { continue }  // this server's own, held as committed
                            arrived(change.generation, change.rowsText.flatMap(NotifiedChange.rows))
                        }
                    }
                } onCancel: {
                    connection.close().whenComplete { _ in }
                }
                try? await connection.close()
            } catch {
                if Task.isCancelled { return }
                logger.warning("listening for changes failed, again in \(delay): \(String(reflecting: error))")
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(10))
        }
    }

    /// A clear message for what goes wrong while connecting (postgres-nio's errors hide the
    /// server's reason from `description`).
    private static func explained(_ error: any Error, _ address: PostgresAddress) -> any Error {
        if let error = error as? StoreError { return error }
        if let error = error as? PSQLError {
            let reason =
                error.serverInfo?[.message]
                ?? (error.code == .sslUnsupported
                    ? "the server does not offer TLS, which sslmode=\(address.tlsMode.rawValue) demands"
                    : error.underlying.map { address.tlsFailure($0) ?? "\($0)" } ?? "\(error.code)")
            return StoreError.damaged("PostgreSQL at \(address): \(reason)")
        }
        return StoreError.damaged("PostgreSQL at \(address): \(address.tlsFailure(error) ?? "\(error)")")
    }
}
