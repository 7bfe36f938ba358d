import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

/// Paid orders over HTTP (`/auth/orders`, the accounts extension) on SQLite and PostgreSQL
/// (`FAKENFT_TEST_STORE`): each kept in the payment's transaction with its prices then, and seen by
/// its owner only. And the storage's rows written by the columns they name: a column added by a
/// migration alone is kept by every change and written when named.
@Suite struct PaidOrderTests {
    typealias Accounts = AccountTests

    static func put(_ server: TestServer, cart: [String], token: String) async throws {
        try await Accounts.put(server, "/api/v1/orders/1", [("nfts", cart.joined(separator: ","))], token: token)
    }

    static func pay(_ server: TestServer, currency: String, token: String) async throws -> Bool {
        let result: PaymentResult = try await Accounts.get(server, "/api/v1/orders/1/payment/\(currency)", token: token)
        return result.success
    }

    @Test func aPaymentKeepsItsOrderForItsOwnerOnly() async throws {
        try await TestServer.with { server async throws in
            let anna = try await Accounts.register(server, "Anna", "anna@example.com")
            let boris = try await Accounts.register(server, "Boris", "boris@example.com")
            try await Self.put(server, cart: ["10", "12"], token: anna.token)
            #expect(try await !Self.pay(server, currency: "2", token: anna.token), "currency 2 fails in gen1")
            let none: [PaidOrder] = try await Accounts.get(server, "/api/v1/auth/orders", token: anna.token)
            #expect(none.isEmpty, "a failed payment keeps no order")

            let before = Date()
            #expect(try await Self.pay(server, currency: "1", token: anna.token))
            let orders: [PaidOrder] = try await Accounts.get(server, "/api/v1/auth/orders", token: anna.token)
            let order = try #require(orders.first)
            #expect(orders.count == 1)
            var prices: [Double] = []
            for id in ["10", "12"] { prices.append(try await server.get("/api/v1/nft/\(id)", as: NFT.self).price) }
            #expect(order.items == zip(["10", "12"], prices).map { PaidOrder.Item(nft: $0, price: $1) })
            #expect(order.total == prices.reduce(0, +))
            let bitcoin: Currency = try await server.get("/api/v1/currencies/1")
            #expect(order.currencyId == "1" && order.currencyName == bitcoin.name)
            let paidAt = try Date(order.paidAt, strategy: .iso8601)
            #expect(paidAt >= before.addingTimeInterval(-1) && paidAt <= Date().addingTimeInterval(1))
            let one: PaidOrder = try await Accounts.get(server, "/api/v1/auth/orders/\(order.id)", token: anna.token)
            #expect(one == order)

            // Boris has none, and cannot read Anna's; the shared profile has none either.
            let his: [PaidOrder] = try await Accounts.get(server, "/api/v1/auth/orders", token: boris.token)
            #expect(his.isEmpty)
            let (status, _) = try await server.request(
                "GET", "/api/v1/auth/orders/\(order.id)", headers: ["X-Practicum-Mobile-Token": boris.token])
            #expect(status == 404)
            #expect(try await server.get("/api/v1/auth/orders", as: [PaidOrder].self).isEmpty)

            // A second order: the latest first, in pages.
            try await Self.put(server, cart: ["30"], token: anna.token)
            #expect(try await Self.pay(server, currency: "3", token: anna.token))
            let both: [PaidOrder] = try await Accounts.get(server, "/api/v1/auth/orders", token: anna.token)
            #expect(both.map(\.items.first?.nft) == ["30", "10"])
            let second: [PaidOrder] = try await Accounts.get(
                server, "/api/v1/auth/orders?page=1&size=1", token: anna.token)
            #expect(second == [order])
            let rows = try await server.databaseRows(#"SELECT owner, "currencyId" FROM purchase ORDER BY "paidAt""#)
            #expect(rows == [[anna.userId, "1"], [anna.userId, "3"]])
        }
    }

    @Test func hostileQueriesAreRefusedOrEmpty() async throws {
        try await TestServer.with { server async throws in
            let (status, _) = try await server.request("GET", "/api/v1/auth/orders?page=-1")
            #expect(status == 400)
            let huge = "/api/v1/auth/orders?page=\(Int.max)&size=100"
            #expect(try await server.get(huge, as: [PaidOrder].self).isEmpty)
            let (missing, _) = try await server.request("GET", "/api/v1/auth/orders/%1B%5B2J")
            #expect(missing == 404)
        }
    }

    /// A newer server's migration adds a column; this server, which does not know it, keeps its
    /// value through every change, and once a server has started on the database the functions
    /// that write rows write it when a row names it (PostgreSQL: no function shipped for it).
    @Test func aColumnAddedByAMigrationAloneIsKeptAndWritten() async throws {
        let added = StorageSchema.Step.add(
            .init(name: "nickname", kind: .text, defaultValue: "'none'"), to: ProfileRecord.databaseTableName)
        let dialect: StorageSchema.Dialect = TestStore.isPostgres ? .postgres : .sqlite
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("column-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestServer.with(dataDirectory: folder) { server async throws in
            for statement in StorageSchema.sql(added, dialect) { _ = try await server.databaseRows(statement) }
            _ = try await server.databaseRows(#"UPDATE profile SET nickname = 'Nick' WHERE id = '1'"#)
            let (status, body) = try await server.request(
                "PUT", "/api/v1/profile/1", body: Accounts.form([("name", "Renamed")]),
                contentType: "application/x-www-form-urlencoded")
            #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
            #expect(try await server.get("/api/v1/profile/1", as: Profile.self).name == "Renamed")
            #expect(
                try await server.databaseRows("SELECT name, nickname FROM profile WHERE id = '1'") == [
                    ["Renamed", "Nick"]
                ])
        }
        guard TestStore.isPostgres else { return }
        try await TestServer.with(dataDirectory: folder) { server async throws in  // started again: writers made anew
            _ = try await server.databaseRows(
                #"SELECT fakenft_put_row('profile', '{"id": "1", "nickname": "Written"}'::jsonb)"#)
            _ = try await server.databaseRows(
                #"SELECT fakenft_add_row('purchase', '{"id": "p", "owner": "1", "paidAt": "", "currencyId": "1", "#
                    + #""currencyName": "BTC", "items": "[]", "total": 0}'::jsonb)"#)
            #expect(
                try await server.databaseRows("SELECT name, nickname FROM profile WHERE id = '1'") == [
                    ["Renamed", "Written"]
                ])
            #expect(try await server.databaseRows("SELECT owner FROM purchase WHERE id = 'p'") == [["1"]])
        }
    }
}

/// A guest account handed to its next guest keeps none of the last guest's paid orders, on both
/// databases; a later change of the account forgets nothing more.
struct ForgottenOrderTests {
    static func check(_ database: any StoreDatabase) async throws {
        let writer = ChangeWriter(database: database, log: ChangeLog(), deadlines: TestJobs.deadlines)
        let bitcoin = ShopRulesTests.bitcoin
        func paid() throws -> PurchaseRecord {
            try PurchaseRecord(owner: "1", nfts: ["10"], prices: ["10": 2], currency: bitcoin, at: Date())
        }
        func orders() async throws -> Int { try await database.purchases(of: "1", id: nil, offset: 0, limit: 10).count }
        let first = try paid(), second = try paid()
        _ = try await writer.change(owner: "1") { rows in rows.paid = first }
        #expect(try await orders() == 1)
        _ = try await writer.change(owner: "1") { rows in rows.clearForNextGuest() }
        #expect(try await orders() == 0, "the next guest sees none")
        _ = try await writer.change(owner: "1") { rows in rows.paid = second }
        _ = try await writer.change(owner: "1") { rows in rows.profile.bumpVersion() }
        #expect(try await orders() == 1, "only the change that cleared forgot")
        await database.close()
    }

    @Test func onSQLite() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.check(
            SQLiteDatabase(
                path: folder.appendingPathComponent("fakenft.sqlite").path, reset: false, seed: { try .gen1() },
                paymentOutcomes: [:]))
    }

    @Test(.enabled(if: TestStore.cluster != nil, "a PostgreSQL test cluster (make test)"))
    func onPostgreSQL() async throws {
        try await Self.check(PostgresChangeTests.database(TestStore.newDatabase()))
    }
}
