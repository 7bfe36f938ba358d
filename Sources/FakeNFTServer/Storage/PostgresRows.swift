import FakeNFTModels
import Foundation
import Logging
import PostgresNIO

/// The store's rows read from and written to PostgreSQL (id lists as JSON text, as in SQLite).
extension PostgresDatabase {
    /// Queries log nothing: failures reach the caller, which says what went wrong.
    static let quiet = Logger(label: "fakenft.postgres") { _ in SwiftLogNoOpLogHandler() }

    static func nfts(_ db: PostgresConnection) async throws -> [NFTRecord] {
        try await db.query(
            #"""
            SELECT seq, id, name, images, rating, description, price, author, website, "createdAt"
            FROM nft ORDER BY seq
            """#,
            logger: quiet
        )
        .decode((Int, String, String, String, Int, String, Double, String, String?, String).self).array().map { row in
            NFTRecord(
                seq: row.0,
                NFT(
                    id: row.1, name: row.2, images: try list(row.3), rating: row.4, description: row.5, price: row.6,
                    author: row.7, website: row.8, createdAt: row.9))
        }
    }

    static func collections(_ db: PostgresConnection) async throws -> [CollectionRecord] {
        try await db.query(
            #"""
            SELECT seq, id, name, cover, nfts, description, author, website, "createdAt"
            FROM collection ORDER BY seq
            """#,
            logger: quiet
        )
        .decode((Int, String, String, String, String, String, String, String?, String).self).array().map { row in
            CollectionRecord(
                seq: row.0,
                NFTCollection(
                    id: row.1, name: row.2, cover: row.3, nfts: try list(row.4), description: row.5,
                    author: row.6, website: row.7, createdAt: row.8))
        }
    }

    static func users(_ db: PostgresConnection) async throws -> [UserRecord] {
        try await db.query(
            #"SELECT seq, id, name, avatar, description, website, nfts, rating FROM "user" ORDER BY seq"#, logger: quiet
        )
        .decode((Int, String, String, String, String?, String, String, String).self).array().map { row in
            UserRecord(
                seq: row.0,
                User(
                    id: row.1, name: row.2, avatar: row.3, description: row.4, website: row.5, nfts: try list(row.6),
                    rating: row.7))
        }
    }

    static func currencies(_ db: PostgresConnection) async throws -> [CurrencyRecord] {
        try await db.query(
            #"SELECT seq, id, title, name, image, "paymentSucceeds" FROM currency ORDER BY seq"#, logger: quiet
        )
        .decode((Int, String, String, String, String, Bool).self).array().map { row in
            CurrencyRecord(
                seq: row.0, Currency(id: row.1, title: row.2, name: row.3, image: row.4), paymentSucceeds: row.5)
        }
    }

    /// Every profile (`owner` nil) or one, locked for the transaction when `lock` is set.
    static func profiles(_ owner: String?, lock: Bool = false, _ db: PostgresConnection) async throws -> [ProfileRecord]
    {
        let filter = owner.map { _ in "WHERE id = $1" } ?? ""
        var query = PostgresQuery(
            unsafeSQL:
                """
                SELECT id, name, avatar, description, website, nfts, likes, version FROM profile \
                \(filter)\(lock ? " FOR UPDATE" : "")
                """
        )
        if let owner { query.binds.append(owner) }
        return try await db.query(query, logger: quiet).decode(
            (String, String, String, String, String, String, String, Int).self
        ).array().map { row in
            ProfileRecord(
                Profile(
                    id: row.0, name: row.1, avatar: row.2, description: row.3, website: row.4, nfts: try list(row.5),
                    likes: try list(row.6)),
                version: row.7)
        }
    }

    static func orders(_ owner: String?, lock: Bool = false, _ db: PostgresConnection) async throws -> [OrderRecord] {
        let filter = owner.map { _ in "WHERE id = $1" } ?? ""
        var query = PostgresQuery(
            unsafeSQL: "SELECT id, nfts, version FROM orders \(filter)\(lock ? " FOR UPDATE" : "")")
        if let owner { query.binds.append(owner) }
        return try await db.query(query, logger: quiet).decode((String, String, Int).self).array().map { row in
            OrderRecord(Order(id: row.0, nfts: try list(row.1)), version: row.2)
        }
    }

    static func sessions(_ db: PostgresConnection) async throws -> [SessionRecord] {
        let rows = try await db.query(
            #"SELECT "tokenHash", "userID", "createdAt", "lastUsedAt" FROM session"#, logger: quiet
        ).decode((String, String, String, String).self).array()
        return rows.map { row in
            SessionRecord(tokenHash: row.0, userID: row.1, createdAt: row.2, lastUsedAt: row.3.isEmpty ? nil : row.3)
        }
    }

    /// The accounts whose `column` (`userID` or `emailKey`) is `value`.
    static func accounts(_ column: String, _ value: String, lock: Bool = false, _ db: PostgresConnection) async throws
        -> [AccountRecord]
    {
        try await db.query(
            #"""
            SELECT "userID", name, email, "emailKey", "passwordHash", spent, "createdAt"
            FROM account WHERE "\#(unescaped: column)" = \#(value)\#(unescaped: lock ? " FOR UPDATE" : "")
            """#,
            logger: quiet
        )
        .decode((String, String, String, String, String, Double, String).self).array()
        .map {
            AccountRecord(
                userID: $0.0, name: $0.1, email: $0.2, emailKey: $0.3, passwordHash: $0.4, spent: $0.5, createdAt: $0.6)
        }
    }

    /// Owners' rows, in one query (an owner without a profile or an order is left out).
    static func rows(of owners: Set<String>, _ db: PostgresConnection) async throws -> [String: OwnerRows] {
        var found: [String: OwnerRows] = [:]
        let rows = try await db.query(
            #"""
            SELECT p.id, p.name, p.avatar, p.description, p.website, p.nfts, p.likes, p.version, o.nfts, o.version,
              a."userID", a.name, a.email, a."emailKey", a."passwordHash", a.spent, a."createdAt",
              u.seq, u.name, u.avatar, u.description, u.website, u.nfts, u.rating
            FROM profile p JOIN orders o ON o.id = p.id
              LEFT JOIN account a ON a."userID" = p.id AND p.id <> \#(Owner.shared)
              LEFT JOIN "user" u ON u.id = a."userID"
            WHERE p.id = ANY(\#(Array(owners)))
            """#, logger: quiet)
        for try await row in rows {
            let (id, name, avatar, description, website, nfts, likes, version, orderNFTs, orderVersion) =
                try row.decode(
                    (String, String, String, String, String, String, String, Int, String, Int).self)
            let profile = ProfileRecord(
                Profile(
                    id: id, name: name, avatar: avatar, description: description, website: website,
                    nfts: try list(nfts), likes: try list(likes)),
                version: version)
            let order = OrderRecord(Order(id: id, nfts: try list(orderNFTs)), version: orderVersion)
            let columns = row.makeRandomAccess()
            var account: AccountRecord?
            if let userID = try columns[10].decode(String?.self) {
                account = AccountRecord(
                    userID: userID, name: try columns[11].decode(String.self),
                    email: try columns[12].decode(String.self),
                    emailKey: try columns[13].decode(String.self), passwordHash: try columns[14].decode(String.self),
                    spent: try columns[15].decode(Double.self), createdAt: try columns[16].decode(String.self))
            }
            var user: UserRecord?
            if account != nil, let seq = try columns[17].decode(Int?.self) {
                user = UserRecord(
                    seq: seq,
                    User(
                        id: id, name: try columns[18].decode(String.self), avatar: try columns[19].decode(String.self),
                        description: try columns[20].decode(String?.self), website: try columns[21].decode(String.self),
                        nfts: try list(try columns[22].decode(String.self)), rating: try columns[23].decode(String.self)
                    ))
            }
            found[id] = OwnerRows(profile: profile, order: order, account: account, user: user)
        }
        return found
    }

    /// `owner`'s rows, locked until the transaction ends.
    static func lockedRows(of owner: String, _ db: PostgresConnection) async throws -> OwnerRows {
        guard let profile = try await profiles(owner, lock: true, db).first,
            let order = try await orders(owner, lock: true, db).first
        else {
            throw StoreError.damaged("the database has no profile or no order '\(owner)'")
        }
        let account = owner == Owner.shared ? nil : try await accounts("userID", owner, lock: true, db).first
        var user: UserRecord?
        if account != nil {
            user = try await db.query(
                #"""
                SELECT seq, id, name, avatar, description, website, nfts, rating
                FROM "user" WHERE id = \#(owner) FOR UPDATE
                """#,
                logger: quiet
            )
            .decode((Int, String, String, String, String?, String, String, String).self).array().first.map { row in
                UserRecord(
                    seq: row.0,
                    User(
                        id: row.1, name: row.2, avatar: row.3, description: row.4, website: row.5,
                        nfts: try list(row.6), rating: row.7))
            }
        }
        return OwnerRows(profile: profile, order: order, account: account, user: user)
    }

    static func generation(_ db: PostgresConnection) async throws -> Int {
        try await db.query("SELECT generation FROM store_state WHERE id = 1", logger: quiet).decode(Int.self).array()
            .first ?? 0
    }

    /// Counts a reseed (which empties the change log: every server reads everything again).
    static func nextGeneration(_ db: PostgresConnection) async throws -> Int {
        guard
            let generation = try await db.query(
                "UPDATE store_state SET generation = generation + 1 WHERE id = 1 RETURNING generation", logger: quiet
            )
            .decode(Int.self).array().first
        else { throw StoreError.damaged("the database has no store_state row") }
        return generation
    }

    /// Counts a change and records what it touched, in one statement, as the transaction's last
    /// before its commit: the counter's row lock is then held only for this and the commit, while
    /// changes to different owners run side by side until here.
    static func recordChange(owner: String, users: Bool, sessions: Bool, _ db: PostgresConnection) async throws -> Int {
        guard
            let generation = try await db.query(
                """
                WITH counted AS (UPDATE store_state SET generation = generation + 1 WHERE id = 1 RETURNING generation),
                     logged AS (INSERT INTO change_log (generation, owner, users, sessions) SELECT generation,
                     \(owner), \(users), \(sessions) FROM counted)
                SELECT counted.generation FROM counted CROSS JOIN LATERAL (SELECT pg_notify(\(channel),
                  counted.generation::text)) AS notified
                """, logger: quiet
            ).decode(Int.self).array().first
        else {
            throw StoreError.damaged("the database has no store_state row")
        }
        if generation % 1_000 == 0 {
            try await db.query(
                "DELETE FROM change_log WHERE generation <= \(generation - ChangeRecords.kept)", logger: quiet)
        }
        return generation
    }

    /// Writes an owner's `rows`, made from `before`, in one call of `fakenft_change`
    /// (``PostgresChangeFunction/sql``), named as `writer`'s; nil when the rows are no longer
    /// at `before`'s versions.
    static func write(_ rows: OwnerRows, over before: OwnerRows, writer: String, _ db: PostgresConnection)
        async throws -> Int?
    {
        let profile = rows.profile, order = rows.order, user = rows.user
        let spent = rows.account?.spent
        return try await db.query(
            """
            SELECT fakenft_change(\(profile.id), \(before.profile.version), \(before.order.version),
              \(profile.name), \(profile.avatar), \(profile.description), \(profile.website), \(try text(profile.nfts)),
              \(try text(profile.likes)), \(profile.version), \(try text(order.nfts)), \(order.version),
              \(spent), \(user?.name), \(user?.avatar), \(user?.description), \(user?.website),
              \(try user.map { try text($0.nfts) }), \(user?.nftCount), \(user?.rating), \(rows.user != before.user),
              \(ChangeRecords.kept), \(writer))
            """, logger: quiet
        ).decode(Int?.self).array().first ?? nil
    }

    static func update(_ profile: ProfileRecord, _ db: PostgresConnection) async throws {
        try await db.query(
            """
            UPDATE profile SET name = \(profile.name), avatar = \(profile.avatar),
              description = \(profile.description), website = \(profile.website),
              nfts = \(try text(profile.nfts)), likes = \(try text(profile.likes)),
              version = \(profile.version) WHERE id = \(profile.id)
            """, logger: quiet)
    }

    static func update(_ order: OrderRecord, _ db: PostgresConnection) async throws {
        try await db.query(
            "UPDATE orders SET nfts = \(try text(order.nfts)), version = \(order.version) WHERE id = \(order.id)",
            logger: quiet)
    }

    static func update(_ user: UserRecord, _ db: PostgresConnection) async throws {
        try await db.query(
            #"""
            UPDATE "user" SET name = \#(user.name), avatar = \#(user.avatar), description = \#(user.description),
              website = \#(user.website),
              nfts = \#(try text(user.nfts)), "nftCount" = \#(user.nftCount),
              rating = \#(user.rating) WHERE id = \#(user.id)
            """#, logger: quiet)
    }

    static func insert(_ profile: ProfileRecord, _ db: PostgresConnection) async throws {
        try await db.query(
            """
            INSERT INTO profile (id, name, avatar, description, website, nfts, likes, version) VALUES (\(profile.id),
              \(profile.name), \(profile.avatar),
              \(profile.description), \(profile.website), \(try text(profile.nfts)), \(try text(profile.likes)),
              \(profile.version))
            """, logger: quiet)
    }

    static func insert(_ order: OrderRecord, _ db: PostgresConnection) async throws {
        try await db.query(
            "INSERT INTO orders (id, nfts, version) VALUES (\(order.id), \(try text(order.nfts)), \(order.version))",
            logger: quiet)
    }

    static func insert(_ users: [UserRecord], _ db: PostgresConnection) async throws {
        try await insertAll(
            users, into: #""user" (seq, id, name, avatar, description, website, nfts, "nftCount", rating)"#, columns: 9,
            db
        ) { user, binds in
            try binds.append(user.seq)
            try binds.append(user.id)
            try binds.append(user.name)
            try binds.append(user.avatar)
            try binds.append(user.description)
            try binds.append(user.website)
            try binds.append(text(user.nfts))
            try binds.append(user.nftCount)
            try binds.append(user.rating)
        }
    }

    /// Inserts `rows` with a few statements of up to 500 rows each (`bind` appends one row's
    /// `columns` values), instead of one round trip per row: seeding a new database takes a
    /// moment, not seconds.
    static func insertAll<Row>(
        _ rows: [Row], into table: String, columns: Int, _ db: PostgresConnection,
        _ bind: (Row, inout PostgresBindings) throws -> Void
    ) async throws {
        var start = rows.startIndex
        while start < rows.endIndex {
            let end = min(start + 500, rows.endIndex)
            var binds = PostgresBindings(capacity: (end - start) * columns)
            var tuples: [String] = []
            for row in rows[start..<end] {
                let first = binds.count + 1
                try bind(row, &binds)
                tuples.append("(" + (first..<first + columns).map { "$\($0)" }.joined(separator: ", ") + ")")
            }
            try await db.query(
                PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES " + tuples.joined(separator: ", "), binds: binds),
                logger: quiet)
            start = end
        }
    }

    static func insert(_ session: SessionRecord, _ db: PostgresConnection) async throws {
        try await db.query(
            #"""
            INSERT INTO session ("tokenHash", "userID", "createdAt", "lastUsedAt")
            VALUES (\#(session.tokenHash), \#(session.userID), \#(session.createdAt), \#(session.lastUsedAt))
            """#,
            logger: quiet)
    }

    /// Replaces all data with `dataset`; the change log starts again, so every server reads
    /// everything again.
    static func replaceAll(with dataset: Dataset, _ db: PostgresConnection) async throws {
        for table in [
            "session", "account", "nft", "collection", #""user""#, "currency", "profile", "orders", "change_log",
        ] {
            try await db.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table)"), logger: quiet)
        }
        try await insertAll(
            Array(dataset.nfts.enumerated()),
            into: #"nft (seq, id, name, images, rating, description, price, author, website, "createdAt")"#,
            columns: 10, db
        ) { item, binds in
            let (seq, nft) = item
            try binds.append(seq)
            try binds.append(nft.id)
            try binds.append(nft.name)
            try binds.append(text(nft.images))
            try binds.append(nft.rating)
            try binds.append(nft.description)
            try binds.append(nft.price)
            try binds.append(nft.author)
            try binds.append(nft.website)
            try binds.append(nft.createdAt)
        }
        try await insertAll(
            Array(dataset.collections.enumerated()),
            into: #"collection (seq, id, name, cover, nfts, "nftCount", description, author, website, "createdAt")"#,
            columns: 10, db
        ) { item, binds in
            let (seq, collection) = item
            try binds.append(seq)
            try binds.append(collection.id)
            try binds.append(collection.name)
            try binds.append(collection.cover)
            try binds.append(text(collection.nfts))
            try binds.append(collection.nfts.count)
            try binds.append(collection.description)
            try binds.append(collection.author)
            try binds.append(collection.website)
            try binds.append(collection.createdAt)
        }
        try await insert(dataset.users.enumerated().map { UserRecord(seq: $0, $1) }, db)
        try await insertAll(
            Array(dataset.currencies.enumerated()), into: #"currency (seq, id, title, name, image, "paymentSucceeds")"#,
            columns: 6, db
        ) { item, binds in
            let (seq, currency) = item
            try binds.append(seq)
            try binds.append(currency.id)
            try binds.append(currency.title)
            try binds.append(currency.name)
            try binds.append(currency.image)
            try binds.append(dataset.paymentSucceeds[currency.id] ?? true)
        }
        try await insert(ProfileRecord(dataset.profile), db)
        try await insert(OrderRecord(dataset.order), db)
        let generation = try await nextGeneration(db)
        try await db.query("SELECT pg_notify(\(channel), \(String(generation)))", logger: quiet)
    }

    /// An id list as stored: JSON text.
    static func text(_ ids: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
    }

    static func list(_ text: String) throws -> [String] {
        do { return try JSONDecoder().decode([String].self, from: Data(text.utf8)) } catch {
            throw StoreError.damaged("an id list is not JSON: \(text.prefix(80))")
        }
    }
}

extension AsyncSequence {
    /// Every element, in order.
    func array() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
