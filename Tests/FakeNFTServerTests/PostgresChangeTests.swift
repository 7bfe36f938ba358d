import FakeNFTTesting
import Logging
import Synchronization
import Testing
@testable import FakeNFTServer

/// A change on PostgreSQL goes through one function, `fakenft_changes`, whichever way it comes:
/// also the change that lost twice and runs with its rows locked. Changes of one owner that come
/// together are each made on the rows the one before committed; a change made on rows another server
/// moved is made again on the rows as they are; a refusal stands only on the rows as they are.
@Suite(.enabled(if: TestStore.cluster != nil, "a PostgreSQL test cluster (make test)"))
struct PostgresChangeTests {
    static func database(_ address: String) async throws -> PostgresDatabase {
        try await PostgresDatabase(
            url: address, reset: false, seed: { try .gen1() }, paymentOutcomes: [:],
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
    }

    /// Counts the times a change's rules ran.
    final class Runs: Sendable {
        let count = Atomic<Int>(0)
        func add() { count.add(1, ordering: .relaxed) }
        var total: Int { count.load(ordering: .relaxed) }
    }

    struct Refused: Error {}

    @Test func changesOfOneOwnerThatComeTogetherAreEachMadeOnTheOneBefore() async throws {
        let address = try TestStore.newDatabase()
        let database = try await Self.database(address)
        let runs = Runs()
        let versions = try await withThrowingTaskGroup(of: Int.self) { group in
            for like in 0..<32 {
                group.addTask {
                    try await database.change(owner: "1") { rows in
                        runs.add()
                        rows.profile.likes.append("like-\(like)")
                        rows.profile.bumpVersion()
                    }.rows.profile.version
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        await database.close()
        #expect(runs.total == 32, "each made once: none on rows that had moved on")
        let stored = try TestStore.rows(address, "SELECT likes, version FROM profile WHERE id = '1'")
        let likes = try #require(stored.first?.first), version = try #require(stored.first?.last.flatMap { Int($0) })
        #expect((0..<32).allSatisfy { likes.contains("\"like-\($0)\"") }, "no change lost: \(likes)")
        #expect(Set(versions).count == 32 && versions.max() == version, "32 versions, the last one stored")
        #expect(
            try TestStore.rows(address, "SELECT count(*) FROM change_log WHERE owner = '1'") == [["32"]],
            "a generation each")
    }

    @Test func aChangeOnRowsAnotherServerMovedIsMadeAgainOnTheRowsAsTheyAre() async throws {
        let address = try TestStore.newDatabase()
        let here = try await Self.database(address), there = try await Self.database(address)
        _ = try await here.change(owner: "1") { rows in
            rows.profile.name = "Here"
            rows.profile.bumpVersion()
        }
        _ = try await there.change(owner: "1") { rows in
            rows.profile.website = "https://there.example"
            rows.profile.bumpVersion()
        }
        let runs = Runs()
        let (rows, _, _) = try await here.change(owner: "1") { rows in
            runs.add()
            rows.profile.description = "Again"
            rows.profile.bumpVersion()
        }
        await here.close()
        await there.close()
        #expect(runs.total == 2, "made on the rows known here, then on the rows as they are")
        #expect(rows.profile.website == "https://there.example" && rows.profile.name == "Here")
        #expect(
            try TestStore.rows(address, "SELECT name, website, description FROM profile WHERE id = '1'")
                == [["Here", "https://there.example", "Again"]])
    }

    @Test func aRefusalStandsOnlyOnTheRowsAsTheyAre() async throws {
        let address = try TestStore.newDatabase()
        let database = try await Self.database(address)
        let fresh = Runs(), known = Runs()
        await #expect(throws: Refused.self, "refused on the rows read now: once") {
            try await database.change(owner: "1") { _ in
                fresh.add()
                throw Refused()
            }
        }
        _ = try await database.change(owner: "1") { rows in rows.profile.bumpVersion() }
        await #expect(throws: Refused.self, "refused on the rows known here, then on those read") {
            try await database.change(owner: "1") { _ in
                known.add()
                throw Refused()
            }
        }
        await database.close()
        #expect(fresh.total == 1 && known.total == 2)
    }

    @Test func aLockedChangeIsWrittenThroughTheChangeFunction() async throws {
        let address = try TestStore.newDatabase()
        let database = try await Self.database(address)
        let before = try TestStore.rows(address, "SELECT generation FROM store_state")
        let answer = try await database.lockedChange(
            .init(owner: "1", readFirst: true) { rows in
                rows.profile.name = "Locked"
                rows.profile.bumpVersion()
                return "done"
            })
        await database.close()
        guard case .committed(let rows, _, let scope) = answer else { throw StoreError.damaged("not committed") }
        #expect(scope.generation == Int(before.first?.first ?? "").map { $0 + 1 })
        #expect(
            try TestStore.rows(address, "SELECT name, version FROM profile WHERE id = '1'")
                == [["Locked", String(rows.profile.version)]])
        #expect(
            try TestStore.rows(address, "SELECT owner, users FROM change_log WHERE generation = \(scope.generation)")
                == [["1", "f"]], "logged as every change is")
    }
}
