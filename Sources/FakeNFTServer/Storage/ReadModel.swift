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
    var profile: Versioned
    var order: Versioned

    /// Reads the whole database.
    static func load(_ db: Database) throws -> ReadModel {
        let nfts = try EncodedTable(db, NFTRecord.self, seq: NFTRecord.Columns.seq, sorts: SortWhitelist.nft, id: \.id, name: \.name, model: \.model)
        let collections = try EncodedTable(db, CollectionRecord.self, seq: CollectionRecord.Columns.seq, sorts: SortWhitelist.collection, id: \.id,
                                           name: \.name, model: \.model)
        let users = try EncodedTable(db, UserRecord.self, seq: UserRecord.Columns.seq, sorts: SortWhitelist.user, id: \.id, name: \.name, model: \.model)
        let currencies = try EncodedTable(db, CurrencyRecord.self, seq: CurrencyRecord.Columns.seq, sorts: [:], id: \.id, model: \.model)
        return ReadModel(nfts: nfts, collections: collections, users: users, currencies: currencies,
                         profile: try versioned(ProfileRecord.current(db)), order: try versioned(OrderRecord.current(db)))
    }

    static func versioned(_ profile: ProfileRecord) throws -> Versioned {
        Versioned(version: profile.version, json: try JSONBody.encode(profile.model))
    }

    static func versioned(_ order: OrderRecord) throws -> Versioned {
        Versioned(version: order.version, json: try JSONBody.encode(order.model))
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
