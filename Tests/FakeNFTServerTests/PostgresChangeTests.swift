import FakeNFTTesting
import Logging
import Synchronization
import Testing
@testable import FakeNFTServer

/// A change on PostgreSQL goes through one function, `fakenft_apply`, whichever way it comes:
/// also the change that lost twice and runs with its rows locked. Changes of one owner that come
/// together are each made on the rows the one before committed; a change made on rows another server
/// moved is made again on the rows as they are; a refusal stands only on the rows as they are.
@Suite(.enabled(if: TestStore.cluster != nil, "a PostgreSQL test cluster (make test)"))
struct PostgresChangeTests {
    static func database(_ address: String) async throws -> PostgresDatabase {
        try await PostgresDatabase(
            url: address, reset: false, seed: { try .gen1() }, paymentOutcomes: [:], deadlines: TestJobs.deadlines,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
    }

    /// A database with the writer and the log a store gives it.
    struct Writing {
        let database: PostgresDatabase
        let log = ChangeLog()
        let writer: ChangeWriter

        init(_ address: String) async throws {
            database = try await PostgresChangeTests.database(address)
            writer = ChangeWriter(database: database, log: log, deadlines: TestJobs.deadlines)
        }

        func change<Outcome: Sendable>(owner: String, _ rules: @escaping @Sendable (inout OwnerRows) throws -> Outcome)
            async throws -> (rows: OwnerRows, outcome: Outcome, scope: ChangeScope)
        {
            try await writer.change(owner: owner, rules)
        }

        func close() async { await database.close() }
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
        let database = try await Writing(address)
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
        let here = try await Writing(address), there = try await Writing(address)
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
        let database = try await Writing(address)
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

    /// The generations a database tells its store, in order.
    final class Told: Sendable {
        let generations = Mutex<[Int]>([])
        func add(_ generation: Int) { generations.withLock { $0.append(generation) } }
        var all: [Int] { generations.withLock { $0 } }
    }

    /// While this server's batch is written (held here by a row lock another session takes),
    /// another server's change is notified: it is held at once, and told to the store only once
    /// the batch's own change is held, so that the store finds no gap to read back.
    @Test(.timeLimit(.minutes(5))) func aChangeNotifiedWhileABatchIsWrittenIsToldOnceTheBatchIsHeld()
        async throws
    {
        let address = try TestStore.newDatabase()
        let here = try await Writing(address), there = try await Writing(address)
        _ = try await here.change(owner: "1") { rows in rows.profile.bumpVersion() }  // its rows known here
        let told = Told()
        let following = Task { await here.database.followOtherWriters { here.log.arrived($0, rows: $1) } }
        let telling = Task { for await generation in here.log.told { told.add(generation) } }
        #expect(await polled { told.all == [.max] }, "listening (and told to read what it missed)")
        var account = ShopRulesTests.account()
        account.sessions = [SessionRecord(tokenHash: "t", userID: "u-1", createdAt: "2026-11-28T00:00:00Z")]
        let last = try TestStore.rows(address, #"SELECT MAX(seq) FROM "user""#).first?.first.flatMap { Int($0) }
        account.user?.seq = try #require(last) + 1  // numbered last, as a sign-up is
        let signUp = try #require(try await there.writer.create(account)).generation
        #expect(await polled { told.all == [.max, signUp] }, "told at once: no batch of here's being written")
        // Another session locks the shared profile until it is ended.
        let locker = Task {
            try await spawned(
                "/usr/bin/psql",
                [
                    TestStore.psqlAddress(address), "-X", "-q", "-c",
                    "BEGIN; SELECT 1 FROM profile WHERE id = '1' FOR UPDATE; SELECT pg_sleep(300); COMMIT",
                ])
        }
        func sessions(_ condition: String) throws -> Int {
            Int(
                try TestStore.rows(
                    address, "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND \(condition)"
                ).first?.first
                    ?? "")
                ?? 0
        }
        #expect(try await polled { try sessions("query LIKE '%pg_sleep(300)%' AND state = 'active'") == 1 })
        let blocked = Task { try await here.change(owner: "1") { rows in rows.profile.bumpVersion() } }
        #expect(try await polled { try sessions("wait_event_type = 'Lock'") == 1 }, "here's batch waits")
        let (_, _, theirs) = try await there.change(owner: "u-1") { rows in rows.profile.bumpVersion() }
        #expect(await polled { !here.log.run(after: theirs.generation - 1).isEmpty }, "its rows held here")
        #expect(told.all == [.max, signUp], "not told while here's batch is written")
        _ = try TestStore.rows(
            address,
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE pid <> pg_backend_pid() AND query LIKE '%pg_sleep(300)%'
            """)
        _ = try? await locker.value
        let (_, _, ours) = try await blocked.value
        #expect(ours.generation == theirs.generation + 1, "committed after theirs")
        #expect(await polled { told.all == [.max, signUp, theirs.generation] }, "told once the batch is held")
        following.cancel()
        telling.cancel()
        await here.close()
        await there.close()
    }

    @Test func aLockedChangeIsWrittenThroughTheChangeFunction() async throws {
        let address = try TestStore.newDatabase()
        let database = try await Self.database(address)
        let before = try TestStore.rows(address, "SELECT generation FROM store_state")
        let (made, generation) = try await database.writeLocked(owner: "1") { rows in
            try MadeChange(on: rows) { rows in
                rows.profile.name = "Locked"
                rows.profile.bumpVersion()
                return "done"
            }
        }
        await database.close()
        let rows = made.rows
        #expect(made.outcome as? String == "done")
        #expect(generation == Int(before.first?.first ?? "").map { $0 + 1 })
        #expect(
            try TestStore.rows(address, "SELECT name, version FROM profile WHERE id = '1'")
                == [["Locked", String(rows.profile.version)]])
        #expect(
            try TestStore.rows(address, "SELECT owner, users FROM change_log WHERE generation = \(generation)")
                == [["1", "f"]], "logged as every change is")
    }
}
