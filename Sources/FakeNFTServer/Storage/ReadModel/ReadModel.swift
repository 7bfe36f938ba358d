import HashTreeCollections
import FakeNFTModels
import Foundation
import NIOCore

/// Everything a GET can answer, immutable, with each entity's JSON encoded once. The store
/// replaces it as a whole after each committed write, so a reader never sees half a change.
struct ReadModel: Sendable {
    /// JSON of a changing resource and its version (its ETag).
    struct Versioned: Sendable, Equatable {
        var version: Int
        var json: ByteBuffer
    }

    var nfts: EncodedTable
    var collections: EncodedTable
    /// The listed users (``UserRecord/listed``: an SSH key's account once it has done something).
    var users: EncodedTable
    /// The rows `users` was made from, in storage order.
    private(set) var userRecords: ChunkedArray<UserRecord>
    /// The last place in storage order of `/users` taken, by a listed row or not (-1: none): a
    /// sign-up's row takes the next one.
    private(set) var lastUserSeq: Int
    var currencies: EncodedTable
    /// Profiles and orders by owner (``Owner``): the shared one and each account's. In hash trees
    /// (`TreeDictionary`), as the tables are chunked, so that a change copies what it changes,
    /// not every account's.
    var profiles: TreeDictionary<String, Versioned>
    var orders: TreeDictionary<String, Versioned>
    /// Each signed-in token's sign-in, by the token's SHA-256.
    private(set) var sessions: TreeDictionary<String, SignedIn>
    /// The token hashes each account is signed in with (what a change of its sign-ins replaces).
    private var tokens: TreeDictionary<String, [String]>
    /// Each NFT's price (NFTs are only written when the database is seeded).
    var prices: [String: Double]
    /// Each currency's row, by id: whether a payment with it succeeds (set when the server starts)
    /// and its name for a paid order.
    var paymentCurrencies: [String: CurrencyRecord]
    /// The database's change counter this model reflects (``StoreDatabase/changes(since:)``).
    var generation: Int

    /// A read model of the whole database.
    init(_ data: StoredData) async throws {
        async let nfts = EncodedTable(data.nfts, sorts: SortWhitelist.nft, id: \.id, name: \.name, model: \.model)
        async let collections = EncodedTable(
            data.collections, sorts: SortWhitelist.collection, id: \.id, name: \.name, model: \.model)
        let listed = data.users.filter(\.listed)
        async let users = Self.table(of: listed)
        currencies = try await EncodedTable(data.currencies, sorts: SortFields(), id: \.id, model: \.model)
        self.nfts = try await nfts
        self.collections = try await collections
        self.users = try await users
        userRecords = ChunkedArray(listed)
        lastUserSeq = data.users.map(\.seq).max() ?? -1
        profiles = TreeDictionary(firstOf: try data.profiles.map { ($0.id, try Self.versioned($0)) })
        orders = TreeDictionary(firstOf: try data.orders.map { ($0.id, try Self.versioned($0)) })
        guard profiles[Owner.shared] != nil, orders[Owner.shared] != nil else {
            throw StoreError.damaged("the database has no profile or no order (shared, id 1)")
        }
        sessions = TreeDictionary()
        tokens = TreeDictionary()
        prices = Dictionary(data.nfts.map { ($0.id, $0.price) }, uniquingKeysWith: { first, _ in first })
        paymentCurrencies = Dictionary(data.currencies.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        generation = data.generation
        replaceSessions(of: Set(data.sessions.map(\.userID)), with: data.sessions)
    }

    /// Some users' rows changed (accounts', with their profiles; a new account's is added at
    /// the end of storage order): only those rows are encoded again and put back in the orders
    /// their keys moved in (``EncodedTable/updating(_:of:before:sorts:id:name:model:)``). A row
    /// that would not be last in storage order (an SSH key's account listed once it does
    /// something, after later sign-ups) makes the table again. Rows not listed are left out.
    mutating func replaceUsers(changing all: [UserRecord]) async throws {
        lastUserSeq = max(lastUserSeq, all.map(\.seq).max() ?? -1)
        let changed = all.filter(\.listed)
        guard !changed.isEmpty else { return }
        var records = userRecords
        var indices: [Int] = []
        var outOfPlace: [UserRecord] = []
        for record in changed {
            let known = users.position(id: record.id)
            if let index = known, index < records.count, records[index].id == record.id,
                records[index].seq == record.seq
            {
                records[index] = record
                indices.append(index)
            } else if known == nil, !indices.contains(where: { records[$0].id == record.id }),
                records.last.map({ $0.seq < record.seq }) ?? true
            {
                indices.append(records.count)
                records.append(record)
            } else {
                outOfPlace.append(record)
            }
        }
        if outOfPlace.isEmpty {
            users = try users.updating(
                indices, of: records, before: userRecords, sorts: SortWhitelist.user, id: \.id, name: \.name,
                model: \.model)
            userRecords = records
        } else {
            var all = Array(records)
            for record in outOfPlace {
                all.removeAll { $0.id == record.id }
                all.append(record)
            }
            all.sort { $0.seq < $1.seq }
            users = try await Self.table(of: all)
            userRecords = ChunkedArray(all)
        }
    }

    /// The sign-ins of `owner`, by their tokens' hashes.
    func signIns(of owner: String) -> [(tokenHash: String, signedIn: SignedIn)] {
        (tokens[owner] ?? []).compactMap { hash in sessions[hash].map { (hash, $0) } }
    }

    /// The sign-ins of `owners` are now `records` (each one of theirs): their other tokens are
    /// signed out.
    mutating func replaceSessions(of owners: Set<String>, with records: [SessionRecord]) {
        for owner in owners {
            for token in tokens[owner] ?? [] { sessions[token] = nil }
            tokens[owner] = nil
        }
        for record in records {
            sessions[record.tokenHash] = SignedIn(record)
            tokens[record.userID] = (tokens[record.userID] ?? []) + [record.tokenHash]
        }
    }

    private static func table(of users: [UserRecord]) async throws -> EncodedTable {
        try await EncodedTable(users, sorts: SortWhitelist.user, id: \.id, name: \.name, model: \.model)
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

extension ReadModel {
    /// Whose a signed-in token is, and when it was last used (parsed once, as the model is made: a
    /// token's every request reads it); a named token's name, start and end (``SessionRecord/isToken``).
    struct SignedIn: Sendable, Equatable {
        var userID: String
        var lastUsed: Date
        var name: String
        var createdAt: String
        var expires: Date?

        init(_ record: SessionRecord) {
            userID = record.userID
            lastUsed = record.lastUsed
            name = record.name
            createdAt = record.createdAt
            expires = record.expiresAt.isEmpty ? nil : (try? Date(record.expiresAt, strategy: .iso8601)) ?? .distantPast
        }

        /// Whether it is a named token, which never idles out.
        var isToken: Bool { !name.isEmpty }

        /// Whether it has ended by its own time at `now`.
        func hasExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }
    }
}

extension ReadModel {
    /// The fields a list may be sorted by, and the value each one sorts (as SQLite would compare
    /// the column; a user's rating is text compared as `CAST(rating AS INTEGER)`, ties in storage order).
    enum SortWhitelist {
        static let nft = SortFields<NFTRecord>(
            [
                "name": { .text($0.name) }, "rating": { .integer($0.rating) }, "price": { .number($0.price) },
                "id": { .integer($0.seq) }, "createdAt": { .text($0.createdAt) }, "author": { .text($0.author) },
            ], aliases: ["cost": "price"])
        static let collection = SortFields<CollectionRecord>(
            [
                "name": { .text($0.name) }, "nfts": { .integer($0.nftCount) }, "id": { .integer($0.seq) },
                "createdAt": { .text($0.createdAt) }, "author": { .text($0.author) },
            ], aliases: ["count": "nfts"])
        static let user = SortFields<UserRecord>(
            [
                "name": { .text($0.name) }, "rating": { .integerPrefix(of: $0.rating) }, "id": { .integer($0.seq) },
                "nfts": { .integer($0.nftCount) },
            ], aliases: ["count": "nfts"])
    }
}

extension ReadModel {
    /// The fields one kind of entity may be sorted by: each one's sort key, and other names that
    /// sort the same way.
    struct SortFields<Record>: Sendable {
        let keys: [String: @Sendable (Record) -> SortKey]
        let aliases: [String: String]

        init(_ keys: [String: @Sendable (Record) -> SortKey] = [:], aliases: [String: String] = [:]) {
            self.keys = keys
            self.aliases = aliases
        }
    }
}

extension ReadModel {
    /// The tables every reader shares: the catalog, which holds no caller's own data.
    enum Catalog: String, Sendable, CaseIterable {
        case nfts, collections, users, currencies
    }

    subscript(catalog catalog: Catalog) -> EncodedTable {
        switch catalog {
        case .nfts: nfts
        case .collections: collections
        case .users: users
        case .currencies: currencies
        }
    }

    /// Takes `rows` (an owner's profile and order as they are now); returns the changes
    /// subscribers get (those whose version moved).
    mutating func replace(_ rows: ChangedRows) -> [ChangeFeed.Change] {
        var changes: [ChangeFeed.Change] = []
        if profiles[rows.owner]?.version != rows.profile.version {
            changes.append(.profile(owner: rows.owner, version: rows.profile.version, json: rows.profile.json))
            profiles[rows.owner] = rows.profile
        }
        if orders[rows.owner]?.version != rows.order.version {
            changes.append(.order(owner: rows.owner, version: rows.order.version, json: rows.order.json))
            orders[rows.owner] = rows.order
        }
        return changes
    }
}
