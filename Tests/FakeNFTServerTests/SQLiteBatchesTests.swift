import Foundation
import Testing
@testable import FakeNFTServer

/// On SQLite too, changes of different owners that come together are written in one transaction
/// (one flush to disk), each counted and logged with its own generation, and one that its rules
/// refuse fails alone.
struct SQLiteBatchesTests {
    struct Refused: Error {}

    @Test func changesThatComeTogetherShareATransactionAndFailAlone() async throws {
        let store = try await Store.temporary()
        let database = try #require(store.database as? SQLiteDatabase)
        var owners: [String] = []
        for index in 0..<32 {
            owners.append(
                try await store.register(
                    name: "Owner \(index)", email: "owner\(index)@example.com", passwordHash: "",
                    tokenHash: "t\(index)"))
        }
        let before = database.transactions.load(ordering: .relaxed)
        let results = await withTaskGroup(of: (String, Result<Int, any Error>).self) { group in
            for (index, owner) in owners.enumerated() {
                group.addTask {
                    let result = await Result {
                        try await store.writer.change(owner: owner) { rows in
                            if index == 5 { throw Refused() }
                            rows.profile.likes = ["\(index)"]
                            rows.profile.bumpVersion()
                        }.scope.generation
                    }
                    return (owner, result)
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        let transactions = database.transactions.load(ordering: .relaxed) - before
        #expect(transactions < 32, "32 changes in \(transactions) transactions")
        let generations = owners.enumerated().compactMap { index, owner in
            index == 5 ? nil : try? results[owner]?.get()
        }
        #expect(Set(generations).count == 31, "each its own generation")
        #expect(throws: Refused.self) { try results[owners[5]]?.get() }
        let written = try await database.owned(by: Set(owners))
        for (index, owner) in owners.enumerated() {
            #expect(written[owner]?.profile.likes == (index == 5 ? [] : ["\(index)"]), "owner \(index)")
        }
        _ = await store.close(within: .seconds(10))
    }
}
