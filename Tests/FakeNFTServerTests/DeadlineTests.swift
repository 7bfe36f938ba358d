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
