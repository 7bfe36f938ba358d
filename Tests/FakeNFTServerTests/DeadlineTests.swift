import Synchronization
import Testing
@testable import FakeNFTServer

/// A query's deadline holds even when the query never notices its cancellation.
struct DeadlineTests {
    struct Expired: Error {}

    /// (Without the deadline this test would never end: the work never does.)
    @Test func workThatNeverEndsIsAbandonedAtTheLimit() async throws {
        await #expect(throws: Expired.self) {
            try await withDeadline(.milliseconds(100), expired: { Expired() }) {
                // deaf to cancellation, as a query on a dropped connection was
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            }
        }
    }

    struct Closed: Error {}

    /// A query waiting on a connection that closed under it is given up as soon as that is seen,
    /// not at the limit.
    @Test func workAbandonedIsGivenUpAtOnce() async throws {
        let closed = Atomic(false)
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: Closed.self) {
            try await withDeadline(
                .seconds(60), expired: { Expired() }, abandoned: { closed.load(ordering: .relaxed) ? Closed() : nil }
            ) {
                closed.store(true, ordering: .relaxed)
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            }
        }
        #expect(clock.now - started < .seconds(30), "given up long before the limit")
        #expect(
            try await withDeadline(.seconds(60), expired: { Expired() }, abandoned: { nil }) {
                try await Task.sleep(for: Deadlines.shared.tick * 3)
                return 7
            } == 7, "work that is not abandoned runs on past the checks")
    }

    @Test func workThatEndsInTimeGivesItsResultOrError() async throws {
        #expect(try await withDeadline(.seconds(10), expired: { Expired() }) { 42 } == 42)
        await #expect(throws: CancellationError.self) {
            try await withDeadline(.seconds(10), expired: { Expired() }) { throw CancellationError() }
        }
    }

    @Test func aCancelledCallerStopsWaiting() async throws {
        let caller = Task {
            try await withDeadline(.seconds(30), expired: { Expired() }) {
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            }
        }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
    }

    /// Each watch is told at each tick whether its limit passed, then no more; a lifted one is
    /// told nothing; and the looking stops once no watch is left.
    @Test func watchesAreToldUntilTheirLimitUnlessLifted() async throws {
        let deadlines = Deadlines(tick: .milliseconds(10))
        let long = Mutex<[Bool]>([]), short = Mutex<[Bool]>([]), lifted = Mutex<[Bool]>([])
        let longWatch = deadlines.watch(for: .seconds(60)) { passed in long.withLock { $0.append(passed) } }
        _ = deadlines.watch(for: .milliseconds(20)) { passed in short.withLock { $0.append(passed) } }
        deadlines.lift(deadlines.watch(for: .milliseconds(20)) { passed in lifted.withLock { $0.append(passed) } })
        try await Self.waitUntil { long.withLock { $0.count >= 3 } && short.withLock { $0.last == true } }
        deadlines.lift(longWatch)
        let told = (long: long.withLock { $0 }, short: short.withLock { $0 })
        try await Task.sleep(for: .milliseconds(100))
        #expect(told.long.count >= 3 && !told.long.contains(true), "\(told.long)")
        #expect(long.withLock { $0.count } == told.long.count, "a lifted watch is told no more")
        #expect(told.short.last == true && !told.short.dropLast().contains(true), "\(told.short)")
        #expect(short.withLock { $0 } == told.short, "nor is one whose limit passed")
        #expect(lifted.withLock { $0 }.isEmpty)
        let again = Mutex<[Bool]>([])
        _ = deadlines.watch(for: .milliseconds(15)) { passed in again.withLock { $0.append(passed) } }
        try await Self.waitUntil { again.withLock { $0.last == true } }
        #expect(again.withLock { $0 }.last == true, "a watch set after the looking stopped starts it again")
    }

    /// Returns once `condition` holds, or after 10 s.
    static func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<1_000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }
}
