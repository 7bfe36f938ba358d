import FakeNFTModels
import GRDB
import NIOCore

/// Everything a GET can answer, immutable, with each entity's JSON encoded once. The store
/// replaces it as a whole after each committed write, so a reader never sees half a change.
struct ReadModel: Sendable {
    /// JSON of a changing resource and its version (its ETag).
    struct Versioned: Sendable {
        var version: Int
        var json: ByteBuffer
    }

    var nfts: EncodedTable
    var collections: EncodedTable
    var users: EncodedTable
    var currencies: EncodedTable
    /// Profiles and orders by owner (``Owner``): the shared one and each account's.
    var profiles: [String: Versioned]
    var orders: [String: Versioned]
    /// The owner of each signed-in token, by the token's SHA-256.
    var sessions: [String: String]

    /// Reads the whole database.
    static func load(_ db: Database) throws -> ReadModel {
        let nfts = try EncodedTable(db, NFTRecord.self, seq: NFTRecord.Columns.seq, sorts: SortWhitelist.nft, id: \.id, name: \.name, model: \.model)
        let collections = try EncodedTable(db, CollectionRecord.self, seq: CollectionRecord.Columns.seq, sorts: SortWhitelist.collection, id: \.id,
                                           name: \.name, model: \.model)
        let users = try users(db)
        let currencies = try EncodedTable(db, CurrencyRecord.self, seq: CurrencyRecord.Columns.seq, sorts: [:], id: \.id, model: \.model)
        let profiles = try Dictionary(uniqueKeysWithValues: ProfileRecord.fetchAll(db).map { ($0.id, try versioned($0)) })
        let orders = try Dictionary(uniqueKeysWithValues: OrderRecord.fetchAll(db).map { ($0.id, try versioned($0)) })
        guard profiles[Owner.shared] != nil, orders[Owner.shared] != nil else { throw StoreError.damaged("the database has no profile or no order (shared, id 1)") }
        return ReadModel(nfts: nfts, collections: collections, users: users, currencies: currencies,
                         profiles: profiles, orders: orders, sessions: try sessions(db))
    }

    static func users(_ db: Database) throws -> EncodedTable {
        try EncodedTable(db, UserRecord.self, seq: UserRecord.Columns.seq, sorts: SortWhitelist.user, id: \.id, name: \.name, model: \.model)
    }

    static func sessions(_ db: Database) throws -> [String: String] {
        Dictionary(try SessionRecord.fetchAll(db).map { ($0.tokenHash, $0.userID) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every profile is `/profile/1` to its owner, so its JSON says id "1".
    static func versioned(_ profile: ProfileRecord) throws -> Versioned {
        var model = profile.model
        model.id = Owner.shared
        return Versioned(version: profile.version, json: try JSONBody.encode(model))
    }

    static func versioned(_ order: OrderRecord) throws -> Versioned {
        var model = order.model
        model.id = Owner.shared
        return Versioned(version: order.version, json: try JSONBody.encode(model))
    }
}

/// The fields a list may be sorted by, and the column (or expression) each one sorts.
enum SortWhitelist {
        static let nft: [String: SQLExpression] = {
        typealias C = NFTRecord.Columns
        return ["name": C.name.sqlExpression, "rating": C.rating.sqlExpression, "price": C.price.sqlExpression,
                "cost": C.price.sqlExpression, "id": C.seq.sqlExpression, "createdAt": C.createdAt.sqlExpression,
                "author": C.author.sqlExpression]
    }()
    static let collection: [String: SQLExpression] = {
        typealias C = CollectionRecord.Columns
        return ["name": C.name.sqlExpression, "nfts": C.nftCount.sqlExpression, "count": C.nftCount.sqlExpression,
                "id": C.seq.sqlExpression, "createdAt": C.createdAt.sqlExpression, "author": C.author.sqlExpression]
    }()
    static let user: [String: SQLExpression] = {
        typealias C = UserRecord.Columns
        return ["name": C.name.sqlExpression, "rating": cast(C.rating, as: .integer), "id": C.seq.sqlExpression,
                "nfts": C.nftCount.sqlExpression, "count": C.nftCount.sqlExpression]
    }()
}
