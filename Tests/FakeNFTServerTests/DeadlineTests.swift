import FakeNFTTesting
import Synchronization
import Testing
@testable import FakeNFTServer

/// A query's deadline holds even when the query never notices its cancellation. Time here is a
/// test clock's, moved by the tests: nothing waits on the wall clock.
struct DeadlineTests {
    struct Expired: Error {}
    struct Closed: Error {}

    let clock = TestClock()
    let deadlines: Deadlines

    init() { deadlines = Deadlines(tick: .milliseconds(25), clock: clock, jobs: TestJobs.running) }

    /// Moves the clock one tick on once the deadlines' task waits for it; while watches are left,
    /// returns once that tick's look is over (the task waits again).
    func tick() async {
        await clock.sleepers()
        clock.advance(by: deadlines.tick)
        _ = await afterYielding { deadlines.watching == 0 || clock.sleeping > 0 }
    }

    /// (Without the deadline this test would never end: the work never does.)
    @Test func workThatNeverEndsIsAbandonedAtTheLimit() async throws {
        let caller = Task { [deadlines] in
            try await withDeadline(.milliseconds(100), expired: { Expired() }, deadlines: deadlines) {
                // deaf to cancellation, as a query on a dropped connection was
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            }
        }
        for _ in 0..<3 { await tick() }
        #expect(deadlines.watching == 1, "75 ms in, the work still has its time")
        await tick()
        await #expect(throws: Expired.self) { try await caller.value }
    }

    /// A query waiting on a connection that closed under it is given up as soon as that is seen,
    /// not at the limit.
    @Test func workAbandonedIsGivenUpAtOnce() async throws {
        let closed = Atomic(false)
        let abandoned = Task { [deadlines] in
            try await withDeadline(
                .seconds(60), expired: { Expired() }, abandoned: { closed.load(ordering: .relaxed) ? Closed() : nil },
                deadlines: deadlines
            ) {
                closed.store(true, ordering: .relaxed)
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            }
        }
        #expect(await afterYielding { closed.load(ordering: .relaxed) })
        await tick()
        await #expect(throws: Closed.self, "at the first tick, not at the limit") { try await abandoned.value }

        let gate = AsyncStream<Int>.makeStream()
        let working = Task { [deadlines] in
            try await withDeadline(.seconds(60), expired: { Expired() }, abandoned: { nil }, deadlines: deadlines) {
                for await value in gate.stream { return value }
                return 0
            }
        }
        for _ in 0..<3 { await tick() }
        gate.continuation.yield(7)
        #expect(try await working.value == 7, "work that is not abandoned runs on past the checks")
    }

    @Test func workThatEndsInTimeGivesItsResultOrError() async throws {
        #expect(try await withDeadline(.seconds(10), expired: { Expired() }, deadlines: deadlines) { 42 } == 42)
        await #expect(throws: CancellationError.self) {
            try await withDeadline(.seconds(10), expired: { Expired() }, deadlines: deadlines) {
                throw CancellationError()
            }
        }
    }

    @Test func aCancelledCallerStopsWaiting() async throws {
        let caller = Task { [deadlines] in
            try await withDeadline(.seconds(30), expired: { Expired() }, deadlines: deadlines) {
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            }
        }
        await clock.sleepers()
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(await afterYielding { deadlines.watching == 0 }, "its watch lifted")
    }

    /// Each watch is told at each tick whether its limit passed, then no more; a lifted one is
    /// told nothing; and the looking stops once no watch is left.
    @Test func watchesAreToldUntilTheirLimitUnlessLifted() async throws {
        let long = Mutex<[Bool]>([]), short = Mutex<[Bool]>([]), lifted = Mutex<[Bool]>([])
        let longWatch = deadlines.watch(for: .seconds(60)) { passed in long.withLock { $0.append(passed) } }
        _ = deadlines.watch(for: .milliseconds(40)) { passed in short.withLock { $0.append(passed) } }
        deadlines.lift(deadlines.watch(for: .milliseconds(20)) { passed in lifted.withLock { $0.append(passed) } })
        for _ in 0..<3 { await tick() }
        #expect(long.withLock { $0 } == [false, false, false])
        #expect(short.withLock { $0 } == [false, true], "told once its limit passed, then no more")
        deadlines.lift(longWatch)
        #expect(deadlines.watching == 0)
        await tick()
        #expect(long.withLock { $0 }.count == 3, "a lifted watch is told no more")
        #expect(lifted.withLock { $0 }.isEmpty)
        let again = Mutex<[Bool]>([])
        _ = deadlines.watch(for: .milliseconds(25)) { passed in again.withLock { $0.append(passed) } }
        await tick()
        #expect(await afterYielding { again.withLock { $0.last == true } }, "a watch set later is looked at again")
        #expect(!again.withLock { $0 }.dropLast().contains(true))
    }
}
