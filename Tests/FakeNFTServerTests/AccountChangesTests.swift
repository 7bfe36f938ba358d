import FakeNFTTesting
import Foundation
import Testing

@testable import FakeNFTServer

/// Sign-ups, sign-ins, a session's use, sign-outs, guest lending and key links are changes like
/// every other: made by the ``ChangeWriter`` on the account's rows (its sign-ins among them),
/// written with their rows, counted and logged, and taken into this server's read model as they
/// committed, with nothing read back; on both databases.
struct AccountChangesTests {
    /// SQLite always; PostgreSQL with a test cluster, in the pass where servers use SQLite (make test).
    static var databases: [String] {
        ["sqlite"] + (TestStore.cluster != nil && !TestStore.isPostgres ? ["postgres"] : [])
    }

    static func store(_ database: String) async throws -> Store {
        guard database == "postgres" else { return try await Store.temporary() }
        return try await Store(
            database: PostgresChangeTests.database(TestStore.newDatabase()), deadlines: TestJobs.deadlines)
    }

    /// The tokens the read model has `owner` signed in with.
    static func tokens(_ store: Store, _ owner: String) -> Set<String> {
        Set(store.latest.sessions.filter { $0.value.userID == owner }.map(\.key))
    }

    @Test(arguments: databases) func everyAccountWriteIsAChangeTakenInAsCommitted(_ database: String) async throws {
        let store = try await Self.store(database)
        let start = store.generation
        var changes = 0
        let anna = try await store.register(
            name: "Anna", email: "anna@example.com", passwordHash: "x", tokenHash: "t1", key: "SHA256:anna")
        changes += 1
        #expect(Self.tokens(store, anna) == ["t1"] && store.latest.userRecords.last?.id == anna)
        #expect(try await store.owner(ofKey: "SHA256:anna") == anna)
        await #expect(throws: StoreError.emailTaken) {
            try await store.register(name: "Ann", email: "ANNA@example.com", passwordHash: "", tokenHash: "t0")
        }
        try await store.startSession(userID: anna, tokenHash: "t2")
        changes += 1
        #expect(Self.tokens(store, anna) == ["t1", "t2"])

        let later = Date().addingTimeInterval(4 * 86_400)  // past a tenth of the idle limit: the use is written
        #expect(try await store.signedIn(tokenHash: "t2", now: later) == anna)
        changes += 1
        let used = try #require(store.latest.sessions["t2"]).lastUsed
        #expect(abs(used.timeIntervalSince(later)) < 1, "the use taken in: \(used)")

        #expect(try await store.endSession(tokenHash: "t1"))
        changes += 1
        #expect(try await !store.endSession(tokenHash: "t1"), "ended already: nothing written")
        #expect(Self.tokens(store, anna) == ["t2"])

        let boris = try await store.register(
            name: "Boris", email: "boris@example.com", passwordHash: "x", tokenHash: "b1")
        try await store.link(key: "SHA256:anna", to: boris)
        changes += 2
        #expect(try await store.owner(ofKey: "SHA256:anna") == boris, "the key opens Boris's account now")
        #expect(try await store.endSessions(userID: anna) == 1)
        changes += 1
        #expect(Self.tokens(store, anna).isEmpty)

        let guest = try await store.register(
            name: "Guest", email: "guest-1@guest.ssh.invalid", passwordHash: "", tokenHash: "g1", kind: .guest)
        changes += 1
        #expect(try await !store.lend(guest: guest, tokenHash: "g2"), "lent to one guest at a time")
        #expect(try await store.endSession(tokenHash: "g1"))
        #expect(try await store.lend(guest: guest, tokenHash: "g2"))
        changes += 2
        #expect(Self.tokens(store, guest) == ["g2"])

        #expect(store.generation == start + changes, "one generation a change, none for a refusal")
        #expect(store.caughtUp.fromDatabase == 0, "each taken in as committed: nothing read back")
        let stored = try await store.database.owned(by: [anna, boris, guest])
        for owner in [anna, boris, guest] {
            #expect(Set(stored[owner]?.sessions.map(\.tokenHash) ?? []) == Self.tokens(store, owner), "\(owner)")
        }
        let scopes = try #require(try await store.database.changes(since: start))
        #expect(scopes.count == changes)
        #expect(scopes.filter(\.sessions).count == changes - 1, "each but the key link moved sign-ins")
        #expect(scopes.filter(\.users).map(\.owner) == [anna, boris, guest], "a sign-up adds a row to /users")
        _ = await store.close(within: .seconds(10))
    }

    /// Two stores on one database (another process on the SQLite file, another server on PostgreSQL).
    static func twoStores(_ database: String) async throws -> (Store, Store) {
        if database == "postgres" {
            let address = try TestStore.newDatabase()
            return (
                try await Store(database: PostgresChangeTests.database(address), deadlines: TestJobs.deadlines),
                try await Store(database: PostgresChangeTests.database(address), deadlines: TestJobs.deadlines)
            )
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stores-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("fakenft.sqlite").path
        return (
            try await Store(path: path, seed: { try .gen1() }, deadlines: TestJobs.deadlines),
            try await Store(path: path, seed: { try .gen1() }, deadlines: TestJobs.deadlines)
        )
    }

    /// A change made on sign-ins another server moved is made again on the sign-ins as they are:
    /// two servers lending one guest account at once lend it once, each time.
    @Test(arguments: databases) func twoServersLendingOneGuestAtOnceLendItOnce(_ database: String) async throws {
        let (one, two) = try await Self.twoStores(database)
        let guest = try await one.register(
            name: "Guest", email: "guest-1@guest.ssh.invalid", passwordHash: "", tokenHash: "g0", kind: .guest)
        for round in 1...5 {
            #expect(try await one.endSession(tokenHash: one.latest.sessions.first { $0.value.userID == guest }!.key))
            async let first = one.lend(guest: guest, tokenHash: "one-\(round)")
            async let second = two.lend(guest: guest, tokenHash: "two-\(round)")
            let lent = try await [first, second]
            #expect(lent.filter { $0 }.count == 1, "round \(round): \(lent)")
            let stored = try await one.database.owned(by: [guest])[guest]?.sessions.map(\.tokenHash)
            #expect(stored == [lent[0] ? "one-\(round)" : "two-\(round)"], "round \(round)")
            _ = try await one.current()
        }
        _ = await one.close(within: .seconds(10))
        _ = await two.close(within: .seconds(10))
    }
}
