/// Where the store keeps its data: SQLite (``SQLiteDatabase``, processes on one machine) or
/// PostgreSQL (``PostgresDatabase``, server processes on any number of machines). Both hold the same tables, made by
/// the same migrations and seeded the same way; the rules of every change live in ``Store``,
/// whose ``ChangeWriter`` makes each one (a like, a payment, a sign-up, a sign-in, a sign-out, a
/// key link) and hands it to ``write(_:)``: the one way the shop's rows are written.
///
/// Every committed change also counts one `generation` and records its ``ChangeScope``, so a
/// server can tell whether its read model is behind the database and what to read again.
protocol StoreDatabase: AccountDatabase, UsageDatabase {
    /// Which database this is, for messages: the file, or the address without its password.
    var name: String { get }
    /// Every table, for a read model.
    func loadAll() async throws -> StoredData

    /// Writes `changes` (of different owners) in one transaction, each only while its owner's rows
    /// are still those it was made on (a new owner's only while it has none), counted and logged:
    /// the generation of each written, nil for one whose rows moved on. One the database refuses
    /// fails alone (a sign-up with an address that has an account: ``StoreError/emailTaken``).
    func write(_ changes: [MadeChange]) async -> [Result<Int?, any Error>]
    /// Reads `owner`'s rows locked against other writers, makes `make`'s change on them and writes
    /// it in the same transaction: the change, and its generation.
    func writeLocked(owner: String, _ make: @escaping @Sendable (OwnerRows) throws -> MadeChange) async throws
        -> (made: MadeChange, generation: Int)

    /// Owners' rows now (for an account, also its sign-in record, its row in `/users` and its
    /// sign-ins), by owner.
    func owned(by owners: Set<String>) async throws -> [String: OwnerRows]
    /// The changes after `generation` through the last committed, oldest first; nil when the
    /// record no longer reaches back that far (read everything again).
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

/// What a database keeps beside the rows a change writes, read on demand: accounts (by address,
/// id or SSH key), paid orders, and what the app kept for an SSH key's visitor (written by itself:
/// no read model holds it, no generation counts it).
protocol AccountDatabase: Sendable {
    /// The account `lookup` finds, if any.
    func account(_ lookup: AccountLookup) async throws -> AccountRecord?
    /// The paid orders of `owner` (only the one of `id`, when given), the latest first: `limit`
    /// of them after the first `offset`.
    func purchases(of owner: String, id: String?, offset: Int, limit: Int) async throws -> [PurchaseRecord]
    /// What the app kept for an SSH key's visitor, if anything; keeps it anew (replacing it).
    func visitor(key fingerprint: String) async throws -> SSHVisitorRecord?
    func keep(_ visitor: SSHVisitorRecord) async throws
    /// The SSH keys that open `userID`'s account, the oldest first.
    func keys(of userID: String) async throws -> [SSHKeyRecord]
}

/// How an account is looked for.
enum AccountLookup: Sendable {
    /// By its address, lower-cased (``AccountRules/emailKey(_:)``).
    case emailKey(String)
    case userID(String)
    /// By the fingerprint of an SSH key that opens it.
    case key(String)
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
/// sign-in record, its row in `/users` and its sign-ins (by token hash); and what the change does
/// to rows never read with them: a paid order it adds, or all of them deleted (a guest account
/// handed to its next guest), an SSH key it makes open the account. Those are nil and false in
/// rows read.
struct OwnerRows: Sendable, Equatable {
    var profile: ProfileRecord
    var order: OrderRecord
    var account: AccountRecord?
    var user: UserRecord?
    var sessions: [SessionRecord] = []
    var paid: PurchaseRecord?
    var forgetsPaid = false
    var linksKey: SSHKeyRecord?
    /// The SSH key (its fingerprint) the change unlinks from the account.
    var unlinksKey: String?

    init(
        profile: ProfileRecord, order: OrderRecord, account: AccountRecord? = nil, user: UserRecord? = nil,
        sessions: [SessionRecord] = []
    ) {
        self.profile = profile
        self.order = order
        self.account = account
        self.user = user
        self.sessions = sessions.sorted { $0.tokenHash < $1.tokenHash }
    }
}

/// What one committed change touched: whose profile and order, and whether `/users` or the
/// sessions changed with it.
struct ChangeScope: Sendable, Hashable {
    var generation: Int
    var owner: String
    var users: Bool
    var sessions: Bool
}
