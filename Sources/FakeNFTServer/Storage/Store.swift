import FakeNFTModels
import Foundation
import GRDB
import NIOConcurrencyHelpers

/// The server's data: a SQLite database (WAL) for writes and an in-memory ``ReadModel`` for reads.
///
/// Every change is one write transaction: read, check and update together, so concurrent
/// requests never lose a write. After the commit, still in the writer's turn, the read model
/// is replaced, so readers see changes in commit order and only once they are durable.
public final class Store: Sendable {
    let pool: DatabasePool
    private let snapshot: NIOLockedValueBox<ReadModel>
    /// Every committed change to a profile, an order or a user's NFTs, for `/events`.
    let feed = ChangeFeed()

    /// Opens (and migrates) the database at `path`; fills it with `seed()` when it is new or
    /// when `reset` is set. A file that is not a usable FakeNFT database is refused.
    public init(path: String, reset: Bool = false, seed: () throws -> Dataset, paymentOutcomes: [String: Bool] = [:]) throws {
        if !reset, let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == 0 {
            throw StoreError.damaged("\(path) is an empty file, not a FakeNFT database; move it away, or start with --reset to replace it")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try Schema.migrator.migrate(pool)
            if try reset || pool.read({ try CurrencyRecord.fetchCount($0) }) == 0 {
                try Self.replaceAll(in: pool, with: seed())
            }
            if !paymentOutcomes.isEmpty { try Self.setPaymentOutcomes(paymentOutcomes, in: pool) }
            snapshot = NIOLockedValueBox(try pool.read(ReadModel.load))
        } catch let error as DatabaseError {
            throw StoreError.damaged("\(path) is not a usable FakeNFT database (\(error.message ?? error.description))")
        } catch let error as DecodingError {
            throw StoreError.damaged("\(path) holds data the server cannot read (\(error))")
        } catch StoreError.damaged(let why) {
            throw StoreError.damaged("\(path): \(why)")
        }
    }

    // MARK: Reading

    /// What readers see now.
    var current: ReadModel { snapshot.withLockedValue { $0 } }

    /// Whether the database answers a query now (`/health`).
    func databaseAnswers() async -> Bool {
        (try? await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }

    // MARK: Writing

    /// Applies the fields present in `update` to `owner`'s profile (an account's also shows in
    /// `/users`); unknown NFT ids in likes are refused. With `ifVersion`, refuses when the
    /// profile is no longer at that version.
    func updateProfile(_ update: ProfileUpdate, owner: String = Owner.shared, ifVersion: Set<Int>? = nil) async throws -> ReadModel.Versioned {
        let catalog = current.nfts
        return try await commit(owner: owner, users: owner != Owner.shared) { db in
            var profile = try ProfileRecord.of(owner, db)
            try Self.check(ifVersion, profile.version, "profile")
            if let name = update.name { profile.name = name }
            if let description = update.description { profile.description = description }
            if let website = update.website { profile.website = website }
            if let avatar = update.avatar { profile.avatar = avatar }
            if let likes = update.likes {
                try Self.checkNFTsExist(likes, field: "likes", in: catalog)
                profile.likes = Self.unique(likes)
            }
            profile.bumpVersion()
            try profile.update(db)
            try Self.showInUsers(profile, db)
        }.profile
    }

    /// Replaces the NFTs of `owner`'s order. With `ifVersion`, refuses when the order moved on.
    func updateOrder(nfts: [String], owner: String = Owner.shared, ifVersion: Set<Int>? = nil) async throws -> ReadModel.Versioned {
        let catalog = current.nfts
        return try await commit(owner: owner) { db in
            var order = try OrderRecord.of(owner, db)
            try Self.check(ifVersion, order.version, "order")
            try Self.checkNFTsExist(nfts, field: "nfts", in: catalog)
            order.nfts = Self.unique(nfts)
            order.bumpVersion()
            try order.update(db)
        }.order
    }

    /// Moves `nfts` (default: the whole order) into `owner`'s profile and clears the order.
    func executeOrder(nfts: [String]? = nil, owner: String = Owner.shared, ifVersion: Set<Int>? = nil) async throws -> ReadModel.Versioned {
        let catalog = current.nfts
        return try await commit(owner: owner, users: owner != Owner.shared) { db in
            let order = try OrderRecord.of(owner, db)
            try Self.check(ifVersion, order.version, "order")
            let bought = nfts ?? order.nfts
            try Self.checkNFTsExist(bought, field: "nfts", in: catalog)
            try Self.moveIntoProfile(bought, owner: owner, db)
        }.order
    }

    /// Pays `owner`'s order with a currency: success moves the order's NFTs to that profile only.
    func pay(currencyID: String, owner: String = Owner.shared) async throws -> PaymentResult {
        let (_, _, success) = try await commit(owner: owner, users: owner != Owner.shared) { db in
            guard let currency = try CurrencyRecord.filter(CurrencyRecord.Columns.id == currencyID).fetchOne(db) else {
                throw StoreError.unknownCurrency(currencyID)
            }
            if currency.paymentSucceeds { try Self.moveIntoProfile(try OrderRecord.of(owner, db).nfts, owner: owner, db) }
            return currency.paymentSucceeds
        }
        return PaymentResult(success: success, orderId: "1", id: currencyID)
    }

    /// Runs `change` in one immediate transaction in GRDB's writer (awaited, so no thread waits
    /// for it); after the commit, replaces in the read model `owner`'s profile and order, and
    /// the users and the sessions when asked, and returns the profile, the order and what
    /// `change` returned.
    func commit<Outcome: Sendable>(owner: String, users: Bool = false, sessions: Bool = false,
                                   _ change: @escaping @Sendable (Database) throws -> Outcome) async throws
        -> (profile: ReadModel.Versioned, order: ReadModel.Versioned, outcome: Outcome) {
        try await pool.writeWithoutTransaction { [snapshot, feed] db in
            try db.beginTransaction(.immediate)
            let outcome: Outcome
            do {
                outcome = try change(db)
                try db.commit()
            } catch {
                try? db.rollback()
                throw error
            }
            let profile = try ReadModel.versioned(ProfileRecord.of(owner, db))
            let order = try ReadModel.versioned(OrderRecord.of(owner, db))
            let userTable = users ? try ReadModel.users(db) : nil
            let sessionTable = sessions ? try ReadModel.sessions(db) : nil
            let ownedNFTs = users ? try UserRecord.filter(UserRecord.Columns.id == owner).fetchOne(db)?.nftCount : nil
            let before = snapshot.withLockedValue { model in
                defer {
                    model.profiles[owner] = profile
                    model.orders[owner] = order
                    if let userTable { model.users = userTable }
                    if let sessionTable { model.sessions = sessionTable }
                }
                return (profile: model.profiles[owner]?.version, order: model.orders[owner]?.version)
            }
            // Still in the writer's turn: subscribers get what changed, in commit order.
            var changes: [ChangeFeed.Change] = []
            if before.profile != profile.version { changes.append(.profile(owner: owner, version: profile.version, json: profile.json)) }
            if before.order != order.version { changes.append(.order(owner: owner, version: order.version, json: order.json)) }
            if let ownedNFTs { changes.append(.user(id: owner, nfts: ownedNFTs)) }
            feed.publish(changes)
            return (profile, order, outcome)
        }
    }

    /// The one place where bought NFTs join a profile and leave its order. An account's row in
    /// `/users` follows: its NFTs, and its rating, the ETH it has spent, rounded.
    private static func moveIntoProfile(_ nfts: [String], owner: String, _ db: Database) throws {
        var profile = try ProfileRecord.of(owner, db)
        profile.nfts = unique(profile.nfts + nfts)
        profile.bumpVersion()
        try profile.update(db)
        var order = try OrderRecord.of(owner, db)
        order.nfts = []
        order.bumpVersion()
        try order.update(db)
        guard owner != Owner.shared, var account = try AccountRecord.fetchOne(db, key: owner) else { return }
        let prices = try Double.fetchAll(db, NFTRecord.select(NFTRecord.Columns.price).filter(nfts.contains(NFTRecord.Columns.id)))
        account.spent += prices.filter(\.isFinite).reduce(0, +)
        try account.update(db)
        try showInUsers(profile, db)
    }

    /// Copies an account's profile into its row in `/users` (nothing for the shared profile).
    private static func showInUsers(_ profile: ProfileRecord, _ db: Database) throws {
        guard profile.id != Owner.shared, var user = try UserRecord.filter(UserRecord.Columns.id == profile.id).fetchOne(db),
              let account = try AccountRecord.fetchOne(db, key: profile.id) else { return }
        user.name = profile.name
        user.avatar = profile.avatar
        user.description = profile.description.isEmpty ? nil : profile.description
        user.website = profile.website
        user.nfts = profile.nfts
        user.nftCount = profile.nfts.count
        user.rating = String(Int(min(account.spent.rounded(), 1e15)))
        try user.update(db)
    }

    private static func check(_ expected: Set<Int>?, _ current: Int, _ resource: String) throws {
        if let expected, !expected.contains(current) { throw StoreError.versionMismatch(resource: resource, current: current) }
    }

    /// NFTs are only ever written when the database is seeded, so the read model's are the
    /// database's.
    private static func checkNFTsExist(_ ids: [String], field: String, in catalog: EncodedTable) throws {
        for id in Set(ids) where catalog.item(id: id) == nil {
            throw StoreError.unknownNFT(field: field, id: id)
        }
    }

    private static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    // MARK: Seeding

    /// Replaces all data with `dataset` in one transaction.
    private static func replaceAll(in pool: DatabasePool, with dataset: Dataset) throws {
        try pool.write { db in
            _ = try NFTRecord.deleteAll(db)
            _ = try CollectionRecord.deleteAll(db)
            _ = try UserRecord.deleteAll(db)
            _ = try CurrencyRecord.deleteAll(db)
            _ = try SessionRecord.deleteAll(db)
            _ = try AccountRecord.deleteAll(db)
            _ = try ProfileRecord.deleteAll(db)
            _ = try OrderRecord.deleteAll(db)
            for (seq, nft) in dataset.nfts.enumerated() { try NFTRecord(seq: seq, nft).insert(db) }
            for (seq, collection) in dataset.collections.enumerated() { try CollectionRecord(seq: seq, collection).insert(db) }
            for (seq, user) in dataset.users.enumerated() { try UserRecord(seq: seq, user).insert(db) }
            for (seq, currency) in dataset.currencies.enumerated() {
                try CurrencyRecord(seq: seq, currency, paymentSucceeds: dataset.paymentSucceeds[currency.id] ?? true).insert(db)
            }
            try ProfileRecord(dataset.profile).insert(db)
            try OrderRecord(dataset.order).insert(db)
        }
    }

    /// Makes payments with the given currency ids succeed (true) or fail (false).
    private static func setPaymentOutcomes(_ outcomes: [String: Bool], in pool: DatabasePool) throws {
        try pool.write { db in
            for (id, success) in outcomes {
                try CurrencyRecord.filter(CurrencyRecord.Columns.id == id)
                    .updateAll(db, CurrencyRecord.Columns.paymentSucceeds.set(to: success))
            }
        }
    }
}

/// Whose profile and order: ``shared`` (requests without an account token, the gen-1 habit),
/// else an account's user id.
enum Owner {
    static let shared = "1"
}

extension ProfileRecord {
    static func of(_ owner: String, _ db: Database) throws -> ProfileRecord {
        guard let profile = try fetchOne(db, key: owner) else { throw StoreError.damaged("the database has no profile '\(owner)'") }
        return profile
    }
}

extension OrderRecord {
    static func of(_ owner: String, _ db: Database) throws -> OrderRecord {
        guard let order = try fetchOne(db, key: owner) else { throw StoreError.damaged("the database has no order '\(owner)'") }
        return order
    }
}
