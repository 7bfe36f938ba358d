import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

/// Payments, orders, persistence and concurrent writes.
@Suite struct StateTests {
    @Test func paymentFailsOrSucceedsPerCurrency() async throws {
        try await TestServer.with { server async throws in
            let failed: PaymentResult = try await server.get("/api/v1/orders/1/payment/2")  // Dogecoin fails in gen1
            #expect(!failed.success && failed.orderId == "1" && failed.id == "2")
            #expect(try await server.get("/api/v1/orders/1", as: Order.self).nfts == ["93", "94", "95"])
            let paid: PaymentResult = try await server.get("/api/v1/orders/1/payment/1")
            #expect(paid.success)
            #expect(try await server.get("/api/v1/orders/1", as: Order.self).nfts.isEmpty)
            let profile: Profile = try await server.get("/api/v1/profile/1")
            #expect(Array(profile.nfts.suffix(3)) == ["93", "94", "95"])
        }
    }

    @Test func paymentOutcomesAreConfigurable() async throws {
        try await TestServer.with(payments: ["2": true, "1": false]) { server async throws in
            #expect(try await server.get("/api/v1/orders/1/payment/1", as: PaymentResult.self).success == false)
            #expect(try await server.get("/api/v1/orders/1/payment/2", as: PaymentResult.self).success == true)
        }
    }

    @Test func postOrderExecutesAndClears() async throws {
        try await TestServer.with { server async throws in
            let (status, data) = try await server.request("POST", "/api/v1/orders/1", body: "nfts=93")
            let order = try JSONDecoder().decode(Order.self, from: data)
            #expect(status == 200 && order.nfts.isEmpty)
            #expect(try await server.get("/api/v1/profile/1", as: Profile.self).nfts.last == "93")
        }
    }

    @Test func dataSurvivesARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fakenft-restart-\(UUID().uuidString)")
        let first = try await TestServer.start(dataDirectory: directory)
        #expect(try await first.request("PUT", "/api/v1/profile/1", body: "name=Kept&likes=7").status == 200)
        #expect(try await first.request("PUT", "/api/v1/orders/1", body: "nfts=1,2").status == 200)
        await first.stop()
        try await TestServer.with(dataDirectory: directory) { second async throws in
            let profile: Profile = try await second.get("/api/v1/profile/1")
            #expect(profile.name == "Kept" && profile.likes == ["7"])
            #expect(try await second.get("/api/v1/orders/1", as: Order.self).nfts == ["1", "2"])
        }
    }

    /// A database a newer server wrote (a migration this one does not know) is refused at start,
    /// the migration named, on SQLite and PostgreSQL; nothing of it is changed.
    @Test func aDatabaseANewerServerWroteIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fakenft-newer-\(UUID().uuidString)")
        let first = try await TestServer.start(dataDirectory: directory)
        let table = TestStore.isPostgres ? "schema_migrations (name)" : "grdb_migrations (identifier)"
        _ = try await first.databaseRows("INSERT INTO \(table) VALUES ('v99-from-a-newer-server')")
        await first.stop()
        await #expect {
            try await TestServer.with(dataDirectory: directory) { _ in }
        } throws: { error in
            let said = String(describing: error)
            return said.contains("written by a newer fakenft") && said.contains("v99-from-a-newer-server")
        }
    }

    /// Each request changes a different field of the same profile at the same time; a
    /// read-modify-write outside a transaction would lose some of them.
    @Test func concurrentWritesLoseNothing() async throws {
        try await TestServer.with { server async throws in
            for round in 0..<10 {
                let bodies = [
                    "name=N\(round)", "description=D\(round)", "website=https://w\(round).example",
                    "avatar=https://a\(round).example/a.png", "likes=\(round + 1)",
                ]
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for body in bodies {
                        group.addTask { try await server.request("PUT", "/api/v1/profile/1", body: body).status }
                    }
                    group.addTask {
                        try await server.request("PUT", "/api/v1/orders/1", body: "nfts=\(round + 10)").status
                    }
                    for try await status in group { #expect(status == 200) }
                }
                let profile: Profile = try await server.get("/api/v1/profile/1")
                #expect(profile.name == "N\(round)")
                #expect(profile.description == "D\(round)" && profile.website == "https://w\(round).example")
                #expect(profile.avatar == "https://a\(round).example/a.png" && profile.likes == ["\(round + 1)"])
                #expect(try await server.get("/api/v1/orders/1", as: Order.self).nfts == ["\(round + 10)"])
            }
        }
    }

    @Test func largeSeedForPaging() async throws {
        try await TestServer.with(seed: .large(users: 1_000, nfts: 500)) { server async throws in
            let last: [User] = try await server.get("/api/v1/users?page=19&size=50")
            #expect(last.count == 50)
            let beyond: [User] = try await server.get("/api/v1/users?page=20&size=50")
            #expect(beyond.isEmpty)
            let nfts: [NFT] = try await server.get("/api/v1/nft?size=1000")
            #expect(nfts.count == 500)
        }
    }
}
