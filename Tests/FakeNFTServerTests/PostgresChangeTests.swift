import FakeNFTTesting
import Logging
import Testing
@testable import FakeNFTServer

/// A change on PostgreSQL goes through one function, `fakenft_changes`, whichever way it comes:
/// also the change that lost twice and runs with its rows locked.
@Suite(.enabled(if: TestStore.cluster != nil, "a PostgreSQL test cluster (make test)"))
struct PostgresChangeTests {
    @Test func aLockedChangeIsWrittenThroughTheChangeFunction() async throws {
        let address = try TestStore.newDatabase()
        let database = try await PostgresDatabase(
            url: address, reset: false, seed: { try .gen1() }, paymentOutcomes: [:],
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let before = try TestStore.rows(address, "SELECT generation FROM store_state")
        let (rows, _, scope) = try await database.lockedChange(owner: "1") { rows in
            rows.profile.name = "Locked"
            rows.profile.bumpVersion()
        }
        await database.close()
        #expect(scope.generation == Int(before.first?.first ?? "").map { $0 + 1 })
        #expect(
            try TestStore.rows(address, "SELECT name, version FROM profile WHERE id = '1'")
                == [["Locked", String(rows.profile.version)]])
        #expect(
            try TestStore.rows(address, "SELECT owner, users FROM change_log WHERE generation = \(scope.generation)")
                == [["1", "f"]], "logged as every change is")
    }
}
