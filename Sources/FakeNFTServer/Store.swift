import FakeNFTCore
import Foundation
import GRDB

/// The server's SQLite database (WAL): collections, NFTs, users, currencies, the profile and the order.
///
/// Every change is one write transaction: read, check and update together, so concurrent
/// requests never lose a write.
public final class Store: Sendable {
    let pool: DatabasePool

    /// Opens (and migrates) the database at `path`.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE nft (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, images TEXT NOT NULL,
                    rating INTEGER NOT NULL, description TEXT NOT NULL, price REAL NOT NULL, author TEXT NOT NULL,
                    website TEXT, createdAt TEXT NOT NULL);
                CREATE TABLE collection (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, cover TEXT NOT NULL,
                    nfts TEXT NOT NULL, nftCount INTEGER NOT NULL, description TEXT NOT NULL, author TEXT NOT NULL,
                    website TEXT, createdAt TEXT NOT NULL);
                CREATE TABLE user (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, avatar TEXT NOT NULL,
                    description TEXT, website TEXT NOT NULL, nfts TEXT NOT NULL, nftCount INTEGER NOT NULL, rating TEXT NOT NULL);
                CREATE TABLE currency (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL, name TEXT NOT NULL,
                    image TEXT NOT NULL, paymentSucceeds INTEGER NOT NULL);
                CREATE TABLE profile (id TEXT PRIMARY KEY, name TEXT NOT NULL, avatar TEXT NOT NULL, description TEXT NOT NULL,
                    website TEXT NOT NULL, nfts TEXT NOT NULL, likes TEXT NOT NULL);
                CREATE TABLE orders (id TEXT PRIMARY KEY, nfts TEXT NOT NULL);
                CREATE INDEX user_rating ON user (CAST(rating AS INTEGER));
                CREATE INDEX user_name ON user (name);
                """)
        }
        return migrator
    }

    /// True when the database holds no data yet.
    public func isEmpty() throws -> Bool {
        try pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM currency") ?? 0 } == 0
    }

    // MARK: Reading

    func nft(id: String) throws -> NFT? {
        try pool.read { db in try Row.fetchOne(db, sql: "SELECT * FROM nft WHERE id = ?", arguments: [id]).map(Self.nft) }
    }

    func nfts(_ query: ListQuery) throws -> [NFT] {
        try pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM nft" + query.sql(Self.nftSort), arguments: StatementArguments(query.arguments)).map(Self.nft) }
    }

    func collection(id: String) throws -> NFTCollection? {
        try pool.read { db in try Row.fetchOne(db, sql: "SELECT * FROM collection WHERE id = ?", arguments: [id]).map(Self.collection) }
    }

    func collections(_ query: ListQuery) throws -> [NFTCollection] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM collection" + query.sql(Self.collectionSort), arguments: StatementArguments(query.arguments)).map(Self.collection)
        }
    }

    func user(id: String) throws -> User? {
        try pool.read { db in try Row.fetchOne(db, sql: "SELECT * FROM user WHERE id = ?", arguments: [id]).map(Self.user) }
    }

    func users(_ query: ListQuery) throws -> [User] {
        try pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM user" + query.sql(Self.userSort), arguments: StatementArguments(query.arguments)).map(Self.user) }
    }

    func currencies() throws -> [Currency] {
        try pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM currency ORDER BY seq").map(Self.currency) }
    }

    func currency(id: String) throws -> Currency? {
        try pool.read { db in try Row.fetchOne(db, sql: "SELECT * FROM currency WHERE id = ?", arguments: [id]).map(Self.currency) }
    }

    func profile() throws -> Profile {
        try pool.read { db in try Self.profile(db) }
    }

    func order() throws -> Order {
        try pool.read { db in try Self.order(db) }
    }

    // MARK: Writing

    /// Applies the fields present in `update`; unknown NFT ids in likes are a 400.
    func updateProfile(_ update: ProfileUpdate) throws -> Profile {
        try pool.write { db in
            var profile = try Self.profile(db)
            if let name = update.name { profile.name = name }
            if let description = update.description { profile.description = description }
            if let website = update.website { profile.website = website }
            if let avatar = update.avatar { profile.avatar = avatar }
            if let likes = update.likes {
                try Self.checkNFTsExist(likes, field: "likes", db)
                profile.likes = Self.unique(likes)
            }
            try db.execute(sql: "UPDATE profile SET name = ?, description = ?, website = ?, avatar = ?, likes = ?",
                           arguments: [profile.name, profile.description, profile.website, profile.avatar, Self.json(profile.likes)])
            return profile
        }
    }

    func updateOrder(nfts: [String]) throws -> Order {
        try pool.write { db in
            try Self.checkNFTsExist(nfts, field: "nfts", db)
            let order = Order(id: "1", nfts: Self.unique(nfts))
            try db.execute(sql: "UPDATE orders SET nfts = ?", arguments: [Self.json(order.nfts)])
            return order
        }
    }

    /// Moves `nfts` (default: the whole order) into the profile's NFTs and clears the order.
    func executeOrder(nfts: [String]? = nil) throws -> Order {
        try pool.write { db in
            let order = try Self.order(db)
            let bought = nfts ?? order.nfts
            try Self.checkNFTsExist(bought, field: "nfts", db)
            var profile = try Self.profile(db)
            profile.nfts = Self.unique(profile.nfts + bought)
            try db.execute(sql: "UPDATE profile SET nfts = ?", arguments: [Self.json(profile.nfts)])
            try db.execute(sql: "UPDATE orders SET nfts = ?", arguments: [Self.json([])])
            return Order(id: "1", nfts: [])
        }
    }

    /// Pays the order with a currency: success moves the NFTs to the profile and clears the order.
    func pay(currencyID: String) throws -> PaymentResult {
        try pool.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT paymentSucceeds FROM currency WHERE id = ?", arguments: [currencyID]) else {
                throw ServerError.notFound("currency \(currencyID)")
            }
            let success: Bool = row["paymentSucceeds"]
            if success {
                let order = try Self.order(db)
                var profile = try Self.profile(db)
                profile.nfts = Self.unique(profile.nfts + order.nfts)
                try db.execute(sql: "UPDATE profile SET nfts = ?", arguments: [Self.json(profile.nfts)])
                try db.execute(sql: "UPDATE orders SET nfts = ?", arguments: [Self.json([])])
            }
            return PaymentResult(success: success, orderId: "1", id: currencyID)
        }
    }

    /// Makes payments with `currencyIDs` succeed (true) or fail (false).
    func setPaymentOutcome(_ outcomes: [String: Bool]) throws {
        try pool.write { db in
            for (id, success) in outcomes {
                try db.execute(sql: "UPDATE currency SET paymentSucceeds = ? WHERE id = ?", arguments: [success, id])
            }
        }
    }

    // MARK: Seeding

    /// Replaces all data with `dataset` in one transaction.
    func replaceAll(with dataset: Dataset) throws {
        try pool.write { db in
            for table in ["nft", "collection", "user", "currency", "profile", "orders"] { try db.execute(sql: "DELETE FROM \(table)") }
            for (seq, nft) in dataset.nfts.enumerated() {
                try db.execute(sql: "INSERT INTO nft VALUES (?,?,?,?,?,?,?,?,?,?)", arguments: [
                    seq, nft.id, nft.name, Self.json(nft.images), nft.rating, nft.description, nft.price, nft.author, nft.website, nft.createdAt])
            }
            for (seq, c) in dataset.collections.enumerated() {
                try db.execute(sql: "INSERT INTO collection VALUES (?,?,?,?,?,?,?,?,?,?)", arguments: [
                    seq, c.id, c.name, c.cover, Self.json(c.nfts), c.nfts.count, c.description, c.author, c.website, c.createdAt])
            }
            for (seq, u) in dataset.users.enumerated() {
                try db.execute(sql: "INSERT INTO user VALUES (?,?,?,?,?,?,?,?,?)", arguments: [
                    seq, u.id, u.name, u.avatar, u.description, u.website, Self.json(u.nfts), u.nfts.count, u.rating])
            }
            for (seq, c) in dataset.currencies.enumerated() {
                try db.execute(sql: "INSERT INTO currency VALUES (?,?,?,?,?,?)", arguments: [
                    seq, c.id, c.title, c.name, c.image, dataset.paymentSucceeds[c.id] ?? true])
            }
            let p = dataset.profile
            try db.execute(sql: "INSERT INTO profile VALUES (?,?,?,?,?,?,?)", arguments: [
                p.id, p.name, p.avatar, p.description, p.website, Self.json(p.nfts), Self.json(p.likes)])
            try db.execute(sql: "INSERT INTO orders VALUES (?,?)", arguments: [dataset.order.id, Self.json(dataset.order.nfts)])
        }
    }

    // MARK: Rows

    static let nftSort: [String: String] = ["name": "name", "rating": "rating", "price": "price", "cost": "price",
                                            "id": "seq", "createdAt": "createdAt", "author": "author"]
    static let collectionSort: [String: String] = ["name": "name", "nfts": "nftCount", "count": "nftCount",
                                                   "id": "seq", "createdAt": "createdAt", "author": "author"]
    static let userSort: [String: String] = ["name": "name", "rating": "CAST(rating AS INTEGER)", "id": "seq",
                                             "nfts": "nftCount", "count": "nftCount"]

    private static func nft(_ row: Row) -> NFT {
        NFT(id: row["id"], name: row["name"], images: list(row["images"]), rating: row["rating"], description: row["description"],
            price: row["price"], author: row["author"], website: row["website"], createdAt: row["createdAt"])
    }

    private static func collection(_ row: Row) -> NFTCollection {
        NFTCollection(id: row["id"], name: row["name"], cover: row["cover"], nfts: list(row["nfts"]), description: row["description"],
                      author: row["author"], website: row["website"], createdAt: row["createdAt"])
    }

    private static func user(_ row: Row) -> User {
        User(id: row["id"], name: row["name"], avatar: row["avatar"], description: row["description"], website: row["website"],
             nfts: list(row["nfts"]), rating: row["rating"])
    }

    private static func currency(_ row: Row) -> Currency {
        Currency(id: row["id"], title: row["title"], name: row["name"], image: row["image"])
    }

    private static func profile(_ db: Database) throws -> Profile {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM profile LIMIT 1") else { throw ServerError.notFound("profile") }
        return Profile(id: row["id"], name: row["name"], avatar: row["avatar"], description: row["description"],
                       website: row["website"], nfts: list(row["nfts"]), likes: list(row["likes"]))
    }

    private static func order(_ db: Database) throws -> Order {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM orders LIMIT 1") else { throw ServerError.notFound("order") }
        return Order(id: row["id"], nfts: list(row["nfts"]))
    }

    private static func checkNFTsExist(_ ids: [String], field: String, _ db: Database) throws {
        for id in Set(ids) where try Int.fetchOne(db, sql: "SELECT 1 FROM nft WHERE id = ?", arguments: [id]) == nil {
            throw ServerError.badField(field, "unknown NFT id '\(id)'")
        }
    }

    private static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    private static func json(_ list: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(list)) ?? Data("[]".utf8), as: UTF8.self)
    }

    private static func list(_ text: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }
}
