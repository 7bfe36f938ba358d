import Foundation
import Synchronization
import Testing

@testable import fakenft

/// The executor the app's tasks run on (``TaskThreads``): every job runs, on its own threads and
/// no more of them than it may start, sleeps end no sooner than asked and at once when cancelled.
@Suite struct TaskThreadsTests {
    @Test func theHeapGivesTheNearestDeadlineFirstAndEqualOnesInTheirOrder() {
        var heap = DeadlineHeap<String>()
        let nearestEachTime = [("a", 50), ("b", 10), ("c", 30), ("d", 10), ("e", 40)].map {
            heap.insert($0.0, at: $0.1)
        }
        #expect(nearestEachTime == [true, true, false, false, false])
        #expect(heap.nearest == 10)
        let early = heap.removeDue(by: 9)
        #expect(early == nil)
        var due: [String] = []
        while let next = heap.removeDue(by: 45) { due.append(next) }
        #expect(due == ["b", "d", "c", "e"])
        #expect(heap.nearest == 50)
        let last = heap.removeDue(by: .max)
        #expect(last == "a")
        #expect(heap.nearest == nil)
    }

    @Test func aDurationBecomesNanosecondsWithoutTrapping() {
        #expect(TaskThreads.nanoseconds(.milliseconds(1_500)) == 1_500_000_000)
        #expect(TaskThreads.nanoseconds(.seconds(-3)) == 0)
        #expect(TaskThreads.nanoseconds(.seconds(Int64.max)) == .max)
    }

    @Test func everyJobRunsOnItsThreadsAndNoMoreThreadsThanItMay() async {
        let threads = TaskThreads(most: 2)
        let seen = Seen()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask(executorPreference: threads) {
                    for _ in 0..<250 {
                        let (name, thread) = Self.currentThread()
                        seen.state.withLock {
                            $0.names.insert(name)
                            $0.threads.insert(thread)
                            $0.steps += 1
                        }
                        await Task.yield()
                    }
                }
            }
        }
        let result = seen.state.withLock { $0 }
        #expect(result.steps == 8 * 250)
        #expect(result.names == [TaskThreads.threadName])
        #expect(result.threads.count <= 2)
    }

    /// With its one thread busy, a task of the default priority queued after utility ones runs
    /// before them.
    @Test func tasksBelowTheDefaultPriorityRunAfterTheRest() async {
        let threads = TaskThreads(most: 1)
        let order = Order()
        let gate = DispatchSemaphore(value: 0)
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let blocker = Task(executorPreference: threads) {
            start.yield()
            Self.wait(for: gate)  // the one thread stays taken until all are queued
        }
        for await _ in started { break }
        var tasks = (0..<3).map { index in
            Task(executorPreference: threads, priority: .utility) { order.append("utility \(index)") }
        }
        tasks.append(Task(executorPreference: threads, priority: .medium) { order.append("default") })
        gate.signal()
        await blocker.value
        for task in tasks { await task.value }
        #expect(order.entries.withLock { $0 } == ["default", "utility 0", "utility 1", "utility 2"])
    }

    @Test func aSleepEndsNoSoonerThanAskedOnItsThreads() async throws {
        let threads = TaskThreads(most: 1)
        let slept = try await Task(executorPreference: threads) {
            let start = ContinuousClock.now
            try await Task.sleep(for: .milliseconds(30))
            return (ContinuousClock.now - start, Self.currentThread().name)
        }.value
        #expect(slept.0 >= .milliseconds(30))
        #expect(slept.1 == TaskThreads.threadName)
    }

    /// A sleep kept for its deadline an hour away ends as its task is cancelled.
    @Test func aCancelledSleepEndsAtOnce() async {
        let threads = TaskThreads(most: 1)
        let sleeper = Task(executorPreference: threads) { try await Task.sleep(for: .seconds(3_600)) }
        while threads.deadlinesKept == 0 { await Task.yield() }
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    private final class Order: Sendable {
        let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    }

    /// Blocks the running thread until `gate` is signalled.
    private static func wait(for gate: DispatchSemaphore) { gate.wait() }

    private final class Seen: Sendable {
        let state = Mutex<(names: Set<String>, threads: Set<UInt>, steps: Int)>(([], [], 0))
    }

    /// The running thread's name and identity (not callable from async code directly).
    private static func currentThread() -> (name: String, thread: UInt) {
        (Thread.current.name ?? "", UInt(pthread_self()))
    }
}
