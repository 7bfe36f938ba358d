import Testing

@testable import FakeNFTServer

/// The changes a read model takes in, held in order whichever way they came, and the
/// generations the store is told to catch up through.
struct ChangeLogTests {
    /// The next generation told, once one is.
    static func nextTold(_ log: ChangeLog) async -> Int? {
        var told = log.told.makeAsyncIterator()
        return await told.next()
    }

    @Test func changesAreTakenInOrderUpToTheFirstGap() throws {
        let rows = try NotifiedChangeTests.changedRows()
        let log = ChangeLog()
        for generation in [5, 7, 9] { log.arrived(generation, rows: rows) }
        log.hold(rows, as: 6)
        #expect(log.run(after: 4).map(\.generation) == [5, 6, 7])
        #expect(log.run(after: 4).map(\.byOtherServer) == [true, false, true])
        #expect(log.run(after: 6).map(\.generation) == [7])
        #expect(log.run(after: 7).isEmpty, "8 never came: read back from the database")
        #expect(log.run(after: 8).map(\.rows) == [rows])
        #expect(log.run(after: 3).isEmpty, "4 never came")
        log.arrived(10, rows: nil)
        log.arrived(.max, rows: rows)
        #expect(log.run(after: 9).isEmpty, "10 came without its rows: read back")
    }

    /// While this server's changes are written, another writer's change is held at once and told
    /// after the batch's own are held: told before, the store would find a gap (the batch's own)
    /// and read back from the database what is on its way.
    @Test func aChangeArrivingWhileABatchIsWrittenIsToldAfter() async throws {
        let rows = try NotifiedChangeTests.changedRows()
        let log = ChangeLog()
        log.arrived(5, rows: rows)
        #expect(await Self.nextTold(log) == 5, "told at once")
        let (entered, enter) = AsyncStream.makeStream(of: Void.self)
        let (release, go) = AsyncStream.makeStream(of: Void.self)
        let batch = Task {
            await log.writing {
                enter.yield()
                for await _ in release { break }
                log.hold(rows, as: 6)
            }
        }
        for await _ in entered { break }
        log.arrived(8, rows: rows)
        log.arrived(7, rows: nil)
        #expect(log.run(after: 7).map(\.generation) == [8], "its rows held already")
        go.yield()
        await batch.value
        #expect(await Self.nextTold(log) == 8, "the newest, told once the batch is held")
        #expect(log.run(after: 5).map(\.generation) == [6], "7 came without rows")
        log.arrived(9, rows: rows)
        #expect(await Self.nextTold(log) == 9, "told at once again")
    }

    /// A change held again replaces the one in its place (a notification read again after the
    /// listener reconnected, a generation numbered again after a reseed).
    @Test func aChangeHeldAgainReplacesTheOneInItsPlace() throws {
        let rows = try NotifiedChangeTests.changedRows()
        let committed = try NotifiedChangeTests.changedRows(name: "As committed")
        let log = ChangeLog()
        log.arrived(3, rows: rows)
        #expect(log.run(after: 2).map(\.rows) == [rows])
        log.hold(committed, as: 3)
        #expect(log.run(after: 2).map(\.rows) == [committed])
        #expect(log.run(after: 2).map(\.byOtherServer) == [false])
    }

    /// The last ``ChangeLog/capacity`` are kept; an older one is gone, not mistaken for a newer
    /// one in its place.
    @Test func onlyTheLastChangesAreKept() throws {
        let rows = try NotifiedChangeTests.changedRows()
        let log = ChangeLog()
        let capacity = ChangeLog.capacity
        for generation in 1...(capacity + 10) { log.hold(rows, as: generation) }
        #expect(log.run(after: 0).isEmpty, "1 was overwritten by \(capacity + 1)")
        #expect(log.run(after: 10).count == capacity)
        #expect(log.run(after: capacity + 9).map(\.generation) == [capacity + 10])
    }
}
