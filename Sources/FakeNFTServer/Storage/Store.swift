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
    private let pool: DatabasePool
    private let snapshot: NIOLockedValueBox<ReadModel>

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

    // MARK: Writing

    /// Applies the fields present in `update`; unknown NFT ids in likes are refused. With
    /// `ifVersion`, refuses when the profile is no longer at that version.
    func updateProfile(_ update: ProfileUpdate, ifVersion: Set<Int>? = nil) async throws -> ReadModel.Versioned {
        let catalog = current.nfts
        return try await commit { db in
            var profile = try ProfileRecord.current(db)
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
        }.profile
    }

    /// Replaces the order's NFTs. With `ifVersion`, refuses when the order moved on.
    func updateOrder(nfts: [String], ifVersion: Set<Int>? = nil) async throws -> ReadModel.Versioned {
        let catalog = current.nfts
        return try await commit { db in
            var order = try OrderRecord.current(db)
            try Self.check(ifVersion, order.version, "order")
            try Self.checkNFTsExist(nfts, field: "nfts", in: catalog)
            order.nfts = Self.unique(nfts)
            order.bumpVersion()
            try order.update(db)
        }.order
    }

    /// Moves `nfts` (default: the whole order) into the profile's NFTs and clears the order.
    func executeOrder(nfts: [String]? = nil, ifVersion: Set<Int>? = nil) async throws -> ReadModel.Versioned {
        let catalog = current.nfts
        return try await commit { db in
            let order = try OrderRecord.current(db)
            try Self.check(ifVersion, order.version, "order")
            let bought = nfts ?? order.nfts
            try Self.checkNFTsExist(bought, field: "nfts", in: catalog)
            try Self.moveIntoProfile(bought, db)
        }.order
    }

    /// Pays the order with a currency: success moves the order's NFTs to the profile.
    func pay(currencyID: String) async throws -> PaymentResult {
        let (_, _, success) = try await commit { db in
            guard let currency = try CurrencyRecord.filter(CurrencyRecord.Columns.id == currencyID).fetchOne(db) else {
                throw StoreError.unknownCurrency(currencyID)
            }
            if currency.paymentSucceeds { try Self.moveIntoProfile(try OrderRecord.current(db).nfts, db) }
            return currency.paymentSucceeds
        }
        return PaymentResult(success: success, orderId: "1", id: currencyID)
    }

    /// Runs `change` in one immediate transaction in GRDB's writer (awaited, so no thread waits
    /// for it); after the commit, replaces the read model's profile and order and returns them
    /// with what `change` returned.
    private func commit<Outcome: Sendable>(_ change: @escaping @Sendable (Database) throws -> Outcome) async throws
        -> (profile: ReadModel.Versioned, order: ReadModel.Versioned, outcome: Outcome) {
        try await pool.writeWithoutTransaction { [snapshot] db in
            try db.beginTransaction(.immediate)
            let outcome: Outcome
            do {
                outcome = try change(db)
                try db.commit()
            } catch {
                try? db.rollback()
                throw error
            }
            let profile = try ReadModel.versioned(ProfileRecord.current(db))
            let order = try ReadModel.versioned(OrderRecord.current(db))
            snapshot.withLockedValue { model in
                model.profile = profile
                model.order = order
            }
            return (profile, order, outcome)
        }
    }

    /// The one place where bought NFTs join the profile and leave the order.
    private static func moveIntoProfile(_ nfts: [String], _ db: Database) throws {
        var profile = try ProfileRecord.current(db)
        profile.nfts = unique(profile.nfts + nfts)
        profile.bumpVersion()
        try profile.update(db)
        var order = try OrderRecord.current(db)
        order.nfts = []
        order.bumpVersion()
        try order.update(db)
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

extension ProfileRecord {
    static func current(_ db: Database) throws -> ProfileRecord {
        guard let profile = try fetchOne(db) else { throw StoreError.damaged("the database has no profile") }
        return profile
    }
}

extension OrderRecord {
    static func current(_ db: Database) throws -> OrderRecord {
        guard let order = try fetchOne(db) else { throw StoreError.damaged("the database has no order") }
        return order
    }
}
