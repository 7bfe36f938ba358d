import FakeNFTTesting
import Synchronization
import Testing
@testable import FakeNFTServer

/// Writes that come together are written together: a lone write at once and alone, writes that
/// find every batch running in the next batch (one of each key), each answered with its own
/// answer, none lost or written twice, and a cancelled request cancels no one's write. The tests
/// wait on what they can see (a batch begun, writes queued), never on the wall clock.
struct ChangeBatchesTests {
    /// Each batch's items as they were written, and a gate that holds every batch until opened.
    final class Writer: Sendable {
        let batches = Mutex<[[Int]]>([])
        let gate = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let held = Atomic<Bool>(false)
        /// Whether each batch lets other tasks run a random number of times, as a database's
        /// round trip does.
        let jitter: Bool

        init(jitter: Bool = false) { self.jitter = jitter }

        /// Answers each item doubled, or a failure for a negative one; holds the batch that
        /// finds `held` set until ``open()``.
        func run(_ items: [Int]) async -> [Result<Int, any Error>] {
            batches.withLock { $0.append(items) }
            if jitter { for _ in 0..<Int.random(in: 0...3) { await Task.yield() } }
            if held.compareExchange(expected: true, desired: false, ordering: .relaxed).exchanged {
                await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } }
            }
            return items.map { $0 < 0 ? .failure(StoreError.unavailable("no")) : .success($0 * 2) }
        }

        /// Lets the held batch go on, once it has come to the gate.
        func open() async throws {
            #expect(await afterYielding { gate.withLock { $0 != nil } }, "a batch held")
            gate.withLock { $0.take() }?.resume()
        }

        /// Whether `count` batches come to be written.
        func begun(_ count: Int) async -> Bool { await afterYielding { batches.withLock { $0.count } >= count } }
    }

    @Test func aLoneWriteGoesAtOnceAndAlone() async throws {
        let batches = ChangeBatches<Int, Int>(largest: 8, deadlines: TestJobs.deadlines, key: \.description),
            writer = Writer()
        #expect(try await batches.write(3, by: writer.run) == 6)
        #expect(try await batches.write(4, by: writer.run) == 8)
        #expect(writer.batches.withLock { $0 } == [[3], [4]])
    }

    @Test func writesThatFindEveryBatchRunningGoTogetherInTheNext() async throws {
        let batches = ChangeBatches<Int, Int>(largest: 8, deadlines: TestJobs.deadlines, key: \.description),
            writer = Writer()
        writer.held.store(true, ordering: .relaxed)
        let leader = Task { try await batches.write(10, by: writer.run) }
        #expect(await writer.begun(1))
        let waiting = (11...18).map { item in Task { try await batches.write(item, by: writer.run) } }
        #expect(await afterYielding { batches.waiting == 8 }, "all eight queued behind the held batch")
        try await writer.open()
        #expect(try await leader.value == 20)
        for (item, task) in zip(11...18, waiting) { #expect(try await task.value == item * 2, "its own answer") }
        let written = writer.batches.withLock { $0 }
        #expect(written.count == 2, "the held write alone, then the eight together: \(written)")
        #expect(written.last.map { Set($0) } == Set(11...18))
    }

    @Test(.timeLimit(.minutes(5))) func aBatchIsNoLargerThanLargestAndNothingIsLostOrWrittenTwice() async throws {
        let batches = ChangeBatches<Int, Int>(largest: 5, deadlines: TestJobs.deadlines, key: \.description),
            writer = Writer(jitter: true)
        for _ in 0..<4 {  // in waves, so that some writes find a batch to lead and others a full house
            let answers = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for item in 0..<300 { group.addTask { (item, try await batches.write(item, by: writer.run)) } }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            #expect(answers.count == 300 && answers.allSatisfy { $0.value == $0.key * 2 }, "each its own answer")
        }
        let written = writer.batches.withLock { $0 }
        #expect(written.allSatisfy { $0.count <= 5 })
        #expect(written.contains { $0.count > 1 }, "some written together")
        #expect(written.flatMap { $0 }.sorted() == (0..<300).flatMap { [$0, $0, $0, $0] }, "each written once a wave")
        // the last batch gave its place back: a lone write goes at once
        writer.held.store(true, ordering: .relaxed)
        let lone = Task { try await batches.write(1, by: writer.run) }
        #expect(await writer.begun(written.count + 1))
        try await writer.open()
        #expect(try await lone.value == 2)
    }

    @Test func writesOfOneKeyGoOneABatchInOrderAndOthersBeside() async throws {
        // the key is the item's tens: 10, 11 and 12 share one, 20 and 30 have their own
        let batches = ChangeBatches<Int, Int>(largest: 8, deadlines: TestJobs.deadlines, key: { "\($0 / 10)" }),
            writer = Writer()
        writer.held.store(true, ordering: .relaxed)
        let leader = Task { try await batches.write(10, by: writer.run) }
        #expect(await writer.begun(1))
        var waiting: [Task<Int, any Error>] = []
        for item in [11, 20, 12, 30] {
            waiting.append(Task { try await batches.write(item, by: writer.run) })
            #expect(await afterYielding { batches.waiting == waiting.count }, "queued in this order")
        }
        try await writer.open()
        #expect(try await leader.value == 20)
        for (item, task) in zip([11, 20, 12, 30], waiting) { #expect(try await task.value == item * 2) }
        #expect(writer.batches.withLock { $0 } == [[10], [11, 20, 30], [12]], "12 after 11, in the batch after")
    }

    @Test func aFailureIsItsWritesOnly() async throws {
        let batches = ChangeBatches<Int, Int>(largest: 8, deadlines: TestJobs.deadlines, key: \.description),
            writer = Writer()
        await #expect(throws: StoreError.unavailable("no")) { try await batches.write(-1, by: writer.run) }
        #expect(try await batches.write(2, by: writer.run) == 4)
    }

    @Test func aCancelledLeaderStillWritesItsBatch() async throws {
        let batches = ChangeBatches<Int, Int>(largest: 8, deadlines: TestJobs.deadlines, key: \.description),
            writer = Writer()
        writer.held.store(true, ordering: .relaxed)
        let leader = Task { try await batches.write(1, by: writer.run) }
        #expect(await writer.begun(1))
        let follower = Task { try await batches.write(2, by: writer.run) }
        #expect(await afterYielding { batches.waiting == 1 })
        leader.cancel()
        try await writer.open()
        #expect(try await leader.value == 2, "its batch ran to the end")
        #expect(try await follower.value == 4)
    }
}
