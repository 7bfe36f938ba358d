import FakeNFTModels
import GRDB

// The rows of the server's tables, written to and read from both stores one way (`StoredRecord`:
// `RecordEncoder`, `RecordDecoder`); id lists are JSON text (`IDListText`). `seq` keeps the data
// set's order.

struct NFTRecord: Equatable, Sendable, StoredRecord {
    static let databaseTableName = "nft"
    var seq: Int
    var id: String
    var name: String
    var images: [String]
    var rating: Int
    var description: String
    var price: Double
    var author: String
    var website: String?
    var createdAt: String

    enum Columns {
        static let seq = Column(CodingKeys.seq), id = Column(CodingKeys.id), name = Column(CodingKeys.name)
        static let rating = Column(CodingKeys.rating), price = Column(CodingKeys.price)
        static let author = Column(CodingKeys.author), createdAt = Column(CodingKeys.createdAt)
    }

    init(seq: Int, _ nft: NFT) {
        self.seq = seq
        id = nft.id
        name = nft.name
        images = nft.images
        rating = nft.rating
        description = nft.description
        price = nft.price
        author = nft.author
        website = nft.website
        createdAt = nft.createdAt
    }

    var model: NFT {
        NFT(
            id: id, name: name, images: images, rating: rating, description: description, price: price,
            author: author, website: website, createdAt: createdAt)
    }
}

struct CollectionRecord: Equatable, Sendable, StoredRecord {
    static let databaseTableName = "collection"
    var seq: Int
    var id: String
    var name: String
    var cover: String
    var nfts: [String]
    var nftCount: Int
    var description: String
    var author: String
    var website: String?
    var createdAt: String

    enum Columns {
        static let seq = Column(CodingKeys.seq), name = Column(CodingKeys.name), nftCount = Column(CodingKeys.nftCount)
        static let author = Column(CodingKeys.author), createdAt = Column(CodingKeys.createdAt)
    }

    init(seq: Int, _ collection: NFTCollection) {
        self.seq = seq
        id = collection.id
        name = collection.name
        cover = collection.cover
        nfts = collection.nfts
        nftCount = collection.nfts.count
        description = collection.description
        author = collection.author
        website = collection.website
        createdAt = collection.createdAt
    }

    var model: NFTCollection {
        NFTCollection(
            id: id, name: name, cover: cover, nfts: nfts, description: description, author: author,
            website: website, createdAt: createdAt)
    }
}

struct UserRecord: Equatable, Sendable, StoredRecord {
    static let databaseTableName = "user"
    var seq: Int
    var id: String
    var name: String
    var avatar: String
    var description: String?
    var website: String
    var nfts: [String]
    var nftCount: Int
    var rating: String
    /// Whether the row shows in `/users` (an SSH key's account: once it has done something).
    var listed: Bool

    enum Columns {
        static let seq = Column(CodingKeys.seq), id = Column(CodingKeys.id), name = Column(CodingKeys.name)
        static let nftCount = Column(CodingKeys.nftCount), rating = Column(CodingKeys.rating)
    }

    init(seq: Int, _ user: User, listed: Bool = true) {
        self.seq = seq
        self.listed = listed
        id = user.id
        name = user.name
        avatar = user.avatar
        description = user.description
        website = user.website
        nfts = user.nfts
        nftCount = user.nfts.count
        rating = user.rating
    }

    var model: User {
        User(id: id, name: name, avatar: avatar, description: description, website: website, nfts: nfts, rating: rating)
    }
}

struct CurrencyRecord: Equatable, Sendable, StoredRecord {
    static let databaseTableName = "currency"
    var seq: Int
    var id: String
    var title: String
    var name: String
    var image: String
    var paymentSucceeds: Bool

    enum Columns {
        static let seq = Column(CodingKeys.seq), id = Column(CodingKeys.id),
            paymentSucceeds = Column(CodingKeys.paymentSucceeds)
    }

    init(seq: Int, _ currency: Currency, paymentSucceeds: Bool) {
        self.seq = seq
        id = currency.id
        title = currency.title
        name = currency.name
        image = currency.image
        self.paymentSucceeds = paymentSucceeds
    }

    var model: Currency { Currency(id: id, title: title, name: name, image: image) }
}

/// A profile: the shared one (id "1") or an account's (its user id). `version` grows with every change (its ETag).
struct ProfileRecord: Equatable, Sendable, StoredRecord {
    static let databaseTableName = "profile"
    var id: String
    var name: String
    var avatar: String
    var description: String
    var website: String
    var nfts: [String]
    var likes: [String]
    var version: Int

    init(_ profile: Profile, version: Int = 1) {
        id = profile.id
        name = profile.name
        avatar = profile.avatar
        description = profile.description
        website = profile.website
        nfts = profile.nfts
        likes = profile.likes
        self.version = version
    }

    /// After a change. Versions are only compared for equality, so one past `Int.max` (in a
    /// database edited by hand) wraps around instead of trapping.
    mutating func bumpVersion() { version = version &+ 1 }

    var model: Profile {
        Profile(
            id: id, name: name, avatar: avatar, description: description, website: website, nfts: nfts, likes: likes)
    }
}

/// An order (the cart): the shared one (id "1") or an account's. `version` grows with every change (its ETag).
struct OrderRecord: Equatable, Sendable, StoredRecord {
    static let databaseTableName = "orders"
    var id: String
    var nfts: [String]
    var version: Int

    init(_ order: Order, version: Int = 1) {
        id = order.id
        nfts = order.nfts
        self.version = version
    }

    /// After a change; wraps around like ``ProfileRecord/bumpVersion()``.
    mutating func bumpVersion() { version = version &+ 1 }

    var model: Order { Order(id: id, nfts: nfts) }
}
