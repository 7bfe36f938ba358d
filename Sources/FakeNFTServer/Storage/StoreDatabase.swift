/// Where the store keeps its data: SQLite (``SQLiteDatabase``, processes on one machine) or
/// PostgreSQL (``PostgresDatabase``, server processes on any number of machines). Both hold the same tables, made by
/// the same migrations and seeded the same way; the rules of every change live in ``Store``,
/// whose ``ChangeWriter`` makes each one and hands it to ``write(_:)``.
///
/// Every committed change also counts one `generation` and records its ``ChangeScope``, so a
/// server can tell whether its read model is behind the database and what to read again.
protocol StoreDatabase: AccountDatabase, UsageDatabase {
    /// Which database this is, for messages: the file, or the address without its password.
    var name: String { get }
    /// Every table, for a read model.
    func loadAll() async throws -> StoredData

    /// Writes `changes` (of different owners) in one transaction, each only while its owner's rows
    /// are still those it was made on, counted and logged: the generation of each written, nil for
    /// one whose rows moved on. One the database refuses fails alone.
    func write(_ changes: [MadeChange]) async -> [Result<Int?, any Error>]
    /// Reads `owner`'s rows locked against other writers, makes `make`'s change on them and writes
    /// it in the same transaction: the change, and its generation.
    func writeLocked(owner: String, _ make: @escaping @Sendable (OwnerRows) throws -> MadeChange) async throws
        -> (made: MadeChange, generation: Int)

    /// Owners' rows now (for an account, also its sign-in record and its row in `/users`), by owner.
    func owned(by owners: Set<String>) async throws -> [String: OwnerRows]
    /// The sign-ins of these accounts (owners).
    func sessions(of owners: Set<String>) async throws -> [SessionRecord]
    /// The generation of the last committed change.
    func generation() async throws -> Int
    /// The changes after `generation`, oldest first; nil when the record no longer reaches
    /// back that far (read everything again).
    func changes(since generation: Int) async throws -> [ChangeScope]?
    /// Follows the changes other writers commit until the task is cancelled: calls `arrived` with
    /// the generation of each as soon as it is seen, with its rows when they came with it
    /// (PostgreSQL's `NOTIFY`; `Int.max` when changes may have been missed; SQLite's generation,
    /// looked at often, never with rows). The store's background work (``Store/run()``); the
    /// database must not be closed before it ends.
    func followOtherWriters(_ arrived: @escaping @Sendable (_ generation: Int, _ rows: ChangedRows?) -> Void) async

    /// Whether the database answers a query now (`/health`).
    func answers() async -> Bool
    /// Connections in use and the most there may be (`/metrics`); nil for SQLite.
    var connectionUse: (inUse: Int, maximum: Int)? { get }
    /// Closes the connections.
    func close() async
}

/// What a database keeps for owners beside the rows a change writes (``StoreDatabase``): accounts,
/// sign-ins, SSH keys and their visitors, and paid orders. Each call is one transaction; one
/// that changes what a read model holds (a sign-up, a sign-in) counts a generation.
protocol AccountDatabase: Sendable {
    /// Adds a new account's rows (its user row last in `/users`), its first session and the SSH
    /// key it was made for, if any. Throws ``StoreError/emailTaken`` when the address has an account.
    func register(_ rows: OwnerRows, session: SessionRecord, key: SSHKeyRecord?) async throws -> Int
    /// The account an SSH key opens, if it has one.
    func owner(ofKey fingerprint: String) async throws -> String?
    /// Makes `key` open its account from now on (instead of the one it opened before).
    func link(_ key: SSHKeyRecord) async throws
    /// What the app kept for an SSH key's visitor, if anything; keeps it anew (replacing it).
    func visitor(key fingerprint: String) async throws -> SSHVisitorRecord?
    func keep(_ visitor: SSHVisitorRecord) async throws
    /// Adds a session; ends one (false when there was none).
    func startSession(_ session: SessionRecord) async throws -> Int
    /// Adds `session` only when its account has none (a guest account is lent to one guest at a
    /// time, whichever server lends it): the generation, or nil when the account has a session.
    func lend(_ session: SessionRecord) async throws -> Int?
    func endSession(tokenHash: String) async throws -> (ended: Bool, generation: Int)
    /// Ends every session of `userID`; how many there were.
    func endSessions(userID: String) async throws -> (ended: Int, generation: Int)
    /// Notes that the session of `tokenHash` was used at `time` (ISO 8601).
    func touchSession(tokenHash: String, at time: String) async throws -> Int

    /// The account with this lower-cased address, or this user id.
    func account(emailKey: String) async throws -> AccountRecord?
    func account(userID: String) async throws -> AccountRecord?
    /// The paid orders of `owner` (only the one of `id`, when given), the latest first: `limit`
    /// of them after the first `offset`.
    func purchases(of owner: String, id: String?, offset: Int, limit: Int) async throws -> [PurchaseRecord]
}

/// The whole database, tables in storage order.
struct StoredData: Sendable {
    var nfts: [NFTRecord]
    var collections: [CollectionRecord]
    var users: [UserRecord]
    var currencies: [CurrencyRecord]
    var profiles: [ProfileRecord]
    var orders: [OrderRecord]
    var sessions: [SessionRecord]
    var generation: Int
}

/// The rows one change may read and write: an owner's profile and order, and for an account its
/// sign-in record and its row in `/users`; and what the change does to the owner's paid orders,
/// which are never read with the rows: one it adds, or all of them deleted (a guest account
/// handed to its next guest). Both are nil and false in rows read.
struct OwnerRows: Sendable, Equatable {
    var profile: ProfileRecord
    var order: OrderRecord
    var account: AccountRecord?
    var user: UserRecord?
    var paid: PurchaseRecord?
    var forgetsPaid = false
}

/// What one committed change touched: whose profile and order, and whether `/users` or the
/// sessions changed with it.
struct ChangeScope: Sendable, Hashable {
    var generation: Int
    var owner: String
    var users: Bool
    var sessions: Bool
}
