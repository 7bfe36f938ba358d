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
                try await Task.sleep(for: abandonedCheckInterval * 3)
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
}
