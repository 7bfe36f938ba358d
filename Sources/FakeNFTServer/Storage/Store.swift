import FakeNFTModels
import FakeNFTRequests
import Foundation
import ServiceLifecycle
import Synchronization

/// The server's data: a ``StoreDatabase`` for writes and an in-memory ``ReadModel`` for reads.
///
/// Every change is one transaction in the database: read, check and update together, so
/// concurrent requests (through this server or another one on the same database) never lose a
/// write. After the commit the read model catches up with the database before the change is
/// answered, so this server's readers never see a state older than one it acknowledged. Reads
/// never wait for the database: other servers' changes (another process on the same SQLite
/// file, or any server on the same PostgreSQL) arrive through ``run()``, usually within
/// milliseconds, and a reader that presents a generation it saw waits for it (``reach(_:patience:)``).
public final class Store: Service {
    let database: any StoreDatabase
    /// The read model readers see, moved forward one catch-up at a time.
    private let published: PublishedModel
    /// The changes the read model takes in, this server's own and other writers', in order.
    private let log = ChangeLog()
    /// This server's changes of owners' rows, made and written (``commit(owner:_:)``).
    let writer: ChangeWriter
    /// Every committed change to a profile, an order or a user's NFTs, for `/events`.
    let feed = ChangeFeed()
    /// How long a sign-in may go unused before it expires, in seconds.
    let sessionIdleLimit: TimeInterval
    /// The server's deadlines (and through them its background jobs): queries, batches, bodies.
    let deadlines: Deadlines
    /// Changes caught up with, by where their rows came from (``caughtUp``).
    private let takenFromNotifications = Atomic<Int>(0)
    private let readFromDatabase = Atomic<Int>(0)

    init(database: any StoreDatabase, deadlines: Deadlines, sessionIdleLimit: TimeInterval = 30 * 86_400) async throws {
        self.database = database
        self.deadlines = deadlines
        self.sessionIdleLimit = sessionIdleLimit
        writer = ChangeWriter(database: database, log: log, deadlines: deadlines)
        do {
            published = PublishedModel(try await ReadModel(database.loadAll()), deadlines: deadlines)
        } catch StoreError.damaged(let why) {
            throw StoreError.damaged("\(database.name): \(why)")
        } catch let error as DecodingError {
            throw StoreError.damaged("\(database.name) holds data the server cannot read (\(error))")
        }
    }

    /// The store's background work, a service of the server's group until its graceful shutdown
    /// (after the HTTP services', which it outlives): following other writers' changes (the
    /// database's own loop, into the log), catching up with them (one at a time, through the
    /// newest told) and the event feed's heartbeat. A store that never runs it still answers and
    /// takes its own changes; it only misses other writers' and gives no heartbeats.
    public func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            await withDiscardingTaskGroup { group in
                group.addTask { await self.database.followOtherWriters { self.log.arrived($0, rows: $1) } }
                group.addTask { for await generation in self.log.told { try? await self.catchUp(through: generation) } }
                group.addTask { await self.feed.beat() }
            }
        }
    }

    /// A SQLite store (see ``SQLiteDatabase/init(path:reset:seed:paymentOutcomes:)``).
    convenience init(
        path: String, reset: Bool = false, seed: () throws -> Dataset, paymentOutcomes: [String: Bool] = [:],
        deadlines: Deadlines, sessionIdleLimit: TimeInterval = 30 * 86_400
    ) async throws {
        try await self.init(
            database: SQLiteDatabase(path: path, reset: reset, seed: seed, paymentOutcomes: paymentOutcomes),
            deadlines: deadlines, sessionIdleLimit: sessionIdleLimit)
    }

    /// Closes the database (after ``run()`` has ended), or stops waiting after `bound` (a
    /// connection stuck after an outage): the close is then left to end by itself. Whether it
    /// closed in time. A cancelled caller still closes it.
    func close(within bound: Duration) async -> Bool {
        do {
            try await withDeadline(
                bound, expired: { StoreError.unavailable("closing took over \(bound)") }, cancellable: false,
                deadlines: deadlines
            ) {
                await self.database.close()
            }
            return true
        } catch {
            return false
        }
    }

    // MARK: Reading

    /// The read model after asking the database for other servers' changes (one round trip, and
    /// one more when there are some): for what the read model does not know yet, such as a token
    /// signed in elsewhere a moment ago.
    func current() async throws -> ReadModel {
        try await published.advance { [self] in try await readChanges(through: nil) }
        return latest
    }

    /// The read model as it is, without asking the database: what every read answers from.
    var latest: ReadModel { published.latest }

    /// The generation of ``latest``, without copying the model.
    var generation: Int { published.generation }

    /// Which read model ``latest`` is: a number no two share, unlike the generation, which a
    /// reseed numbers from the start again. Read before a model is: that model is this one or
    /// a later one.
    var publication: Int { published.publication }

    /// The ``EncodedTable/revision`` of `catalog` in ``latest``, without copying the model: it
    /// changes only with that table.
    func revision(of catalog: ReadModel.Catalog) -> Int { published.revision(of: catalog) }

    /// Returns once the read model reflects `generation` (one a server answered, presented by a
    /// reader who saw it): other servers' changes usually arrive within milliseconds; after
    /// `patience` the database is asked.
    func reach(_ generation: Int, patience: Duration = .milliseconds(250)) async throws {
        if self.generation >= generation { return }
        if await published.wait(for: generation, within: patience) { return }
        _ = try await current()
    }

    /// Whether the database answers a query now (`/health`).
    func databaseAnswers() async -> Bool { await database.answers() }

    /// Changes the read model caught up with since start (not this server's own changes, taken
    /// in as it answered them): other servers' from their notifications' rows, without a query,
    /// and those read back from the database (`/metrics`).
    var caughtUp: (fromNotifications: Int, fromDatabase: Int) {
        (takenFromNotifications.load(ordering: .relaxed), readFromDatabase.load(ordering: .relaxed))
    }

    /// Takes in what changed since the read model's generation, through `target` at least (unless
    /// the model has it already, as this server's own), and tells the event subscribers.
    private func catchUp(through target: Int) async throws {
        if latest.generation >= target { return }
        try await published.advance { [self] in try await readChanges(through: target) }
    }

    /// ``catchUp(through:)``'s work, in its turn: first the changes held with their rows (no
    /// query), then, if that does not reach `target` (nil: whatever the database has), the database's.
    private func readChanges(through target: Int?) async throws {
        try await takeFromLog()
        if let target, latest.generation >= target { return }
        let model = latest
        guard let scopes = try await database.changes(since: model.generation) else { return try await reloadAll() }
        guard let last = scopes.last?.generation else { return }
        let usersChanged = Set(scopes.filter(\.users).map(\.owner))
        let signInsChanged = Set(scopes.filter(\.sessions).map(\.owner))
        let owned = try await database.owned(by: Set(scopes.map(\.owner)))
        writer.forget(owned.keys)
        try await take(
            owned.values.map {
                try ChangedRows(
                    $0, userMoved: usersChanged.contains($0.profile.id),
                    sessionsMoved: signInsChanged.contains($0.profile.id))
            }, through: last)
        readFromDatabase.add(scopes.count, ordering: .relaxed)
    }

    /// Takes in the run of changes held with their rows after the read model's generation: this
    /// server's own, as they committed, and others' that notifications brought (whose owners'
    /// rows this server's next change of them reads first).
    private func takeFromLog() async throws {
        let arrived = log.run(after: latest.generation)
        guard let last = arrived.last?.generation else { return }
        let others = arrived.filter(\.byOtherServer)
        writer.forget(others.map(\.rows.owner))
        try await take(arrived.map(\.rows), through: last)
        takenFromNotifications.add(others.count, ordering: .relaxed)
    }

    /// Publishes the read model with `changed` taken in, in order, as of `generation`, and tells
    /// the event subscribers what moved.
    private func take(_ changed: [ChangedRows], through generation: Int) async throws {
        var next = latest
        var told: [ChangeFeed.Change] = []
        var users: [String: UserRecord] = [:]  // the last of each
        for rows in changed {
            told += next.replace(rows)
            if let user = rows.user {
                users[user.id] = user
                told.append(.user(id: user.id, nfts: user.nftCount))
            }
            if let sessions = rows.sessions { next.replaceSessions(of: [rows.owner], with: sessions) }
        }
        try await next.replaceUsers(changing: Array(users.values))
        next.generation = generation
        published.publish(next)
        feed.publish(told)
    }

    /// After this server's own change of `generation` (held in the log as it committed): the read
    /// model takes it in with the changes before it, from the log, without a query. A change
    /// before it still on its way (another writer's, whose notification is late) is given a moment
    /// to arrive, and then read back.
    private func takeIn(_ generation: Int) async throws {
        if latest.generation < generation { try await published.advance { [self] in try await takeFromLog() } }
        try await reach(generation, patience: .milliseconds(50))
    }

    /// After a reseed by another server, or a read model too far behind: everything again, and
    /// subscribers told to read everything again too.
    private func reloadAll() async throws {
        writer.forgetAll()  // a reseed may have numbered versions again
        let model = try await ReadModel(database.loadAll())
        published.publish(model)
        feed.resyncAll()
    }

    // MARK: Writing

    /// Applies the fields present in `update` to `owner`'s profile
    /// (``OwnerRows/updateProfile(_:ifVersion:likesBase:catalog:)``).
    func updateProfile(
        _ update: ProfileUpdate, owner: String = Owner.shared, ifVersion: Set<Int>? = nil, likesBase: [String]? = nil
    ) async throws -> ReadModel.Versioned {
        let catalog = latest.prices
        return try await commit(owner: owner) { rows in
            try rows.updateProfile(update, ifVersion: ifVersion, likesBase: likesBase, catalog: catalog)
        }.profile
    }

    /// Replaces the NFTs of `owner`'s order (``OwnerRows/updateOrder(nfts:ifVersion:base:catalog:)``).
    func updateOrder(nfts: [String], owner: String = Owner.shared, ifVersion: Set<Int>? = nil, base: [String]? = nil)
        async throws -> ReadModel.Versioned
    {
        let catalog = latest.prices
        return try await commit(owner: owner) { rows in
            try rows.updateOrder(nfts: nfts, ifVersion: ifVersion, base: base, catalog: catalog)
        }.order
    }

    /// Clears the guest account of `owner` for its next guest (``OwnerRows/clearForNextGuest()``).
    func clearGuest(owner: String) async throws {
        _ = try await commit(owner: owner) { rows in rows.clearForNextGuest() }
    }

    /// Moves `nfts` (default: the whole order) into `owner`'s profile and clears the order.
    func executeOrder(nfts: [String]? = nil, owner: String = Owner.shared, ifVersion: Set<Int>? = nil) async throws
        -> ReadModel.Versioned
    {
        let catalog = latest.prices
        return try await commit(owner: owner) { rows in
            try rows.executeOrder(nfts: nfts, ifVersion: ifVersion, catalog: catalog)
        }.order
    }

    /// Pays `owner`'s order with a currency: success moves the order's NFTs to that profile only
    /// and keeps the paid order (``OwnerRows/payOrder(prices:currency:at:)``).
    func pay(currencyID: String, owner: String = Owner.shared) async throws -> PaymentResult {
        let model = latest
        guard let currency = model.paymentCurrencies[currencyID] else {
            throw StoreError.unknownCurrency(currencyID)
        }
        if currency.paymentSucceeds {
            _ = try await commit(owner: owner) { rows in
                try rows.payOrder(prices: model.prices, currency: currency, at: Date())
            }
        }
        return PaymentResult(success: currency.paymentSucceeds, orderId: "1", id: currencyID)
    }

    /// A page of `owner`'s paid orders, the latest first, or the one of `id` (read from the
    /// database: kept by no read model). Pages hold at most ``paidOrdersPage``.
    func paidOrders(of owner: String, id: String? = nil, _ query: ListQuery = ListQuery()) async throws -> [PaidOrder] {
        let size = min(query.size ?? Self.paidOrdersPage, Self.paidOrdersPage)
        let (offset, overflow) = query.page.multipliedReportingOverflow(by: size)
        if overflow { return [] }
        return try await database.purchases(of: owner, id: id, offset: offset, limit: size).map { try $0.model }
    }

    static let paidOrdersPage = 100

    /// Runs `change` on `owner`'s rows in one transaction; once the read model has caught up
    /// with it, returns the profile, the order and what `change` returned.
    func commit<Outcome: Sendable>(owner: String, _ change: @escaping @Sendable (inout OwnerRows) throws -> Outcome)
        async throws
        -> (profile: ReadModel.Versioned, order: ReadModel.Versioned, outcome: Outcome)
    {
        let (rows, outcome, scope) = try await writer.change(owner: owner, change)
        try await takeIn(scope.generation)
        let model = latest  // encoded there already, unless a later change moved on
        let profile =
            try model.profiles[owner].flatMap { $0.version == rows.profile.version ? $0 : nil }
            ?? ReadModel.versioned(rows.profile)
        let order =
            try model.orders[owner].flatMap { $0.version == rows.order.version ? $0 : nil }
            ?? ReadModel.versioned(rows.order)
        return (profile, order, outcome)
    }

    /// Writes a new owner's `rows` (``ChangeWriter/create(_:)``), its row in `/users` numbered
    /// after the last the read model knows (after catching up, when another writer's sign-up came
    /// first); returns once the read model has them.
    func create(_ rows: OwnerRows) async throws {
        var rows = rows
        for attempt in 0..<Self.signUpAttempts {
            let model = attempt == 0 ? latest : try await current()
            rows.user?.seq = model.lastUserSeq + 1
            if let scope = try await writer.create(rows) { return try await takeIn(scope.generation) }
        }
        throw StoreError.unavailable("\(Self.signUpAttempts) sign-ups of other servers came first")
    }

    /// How many times a sign-up is made again after other writers' came first.
    static let signUpAttempts = 20
}

/// Whose profile and order: ``shared`` (requests without an account token, the gen-1 habit),
/// else an account's user id.
enum Owner {
    static let shared = "1"
}
