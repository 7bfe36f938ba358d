@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import Foundation
import Glibc

/// An executor for Swift's tasks that costs nothing while there is nothing to run: up to `most`
/// threads, started as work comes and then asleep on a condition variable, and one more, started
/// with the first sleep, asleep until the nearest deadline of the sleeps (`Task.sleep`) it keeps.
/// Jobs run in the order they became ready, those of tasks asked to run below the default
/// priority (pictures' decoding) after the rest. See ``ProcessExecutors`` for why the app has it.
final class TaskThreads: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    /// Everything below `lock` is read and written only while holding it.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Where idle workers sleep.
    private let workArrived = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Where the timer sleeps (on the monotonic clock) until the nearest deadline or a nearer one.
    private let deadlinesChanged = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let most: Int
    private var ready = JobQueue()
    private var readyLater = JobQueue()
    private var deadlines = DeadlineHeap<(job: UnownedJob, later: Bool)>()
    private var workers = 0
    private var sleeping = 0
    private var wakesOwed = 0
    private var timerStarted = false

    init(most: Int) {
        self.most = max(1, most)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(workArrived, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(deadlinesChanged, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let later = Self.isBelowDefault(job.priority)
        let job = UnownedJob(job)
        pthread_mutex_lock(lock)
        makeReady(job, later: later)
        pthread_mutex_unlock(lock)
    }

    /// Whether `priority` was asked for and is below the default (`utility`, `background`).
    private static func isBelowDefault(_ priority: JobPriority) -> Bool {
        priority.rawValue != 0 && priority.rawValue < TaskPriority.medium.rawValue
    }

    func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
        enqueue(job, at: clock.now.advanced(by: delay), tolerance: tolerance, clock: clock)
    }

    func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
        guard let delay = clock.now.duration(to: instant) as? Duration else {
            // A clock whose durations are not Swift's: the platform's executor knows its kind.
            if let platform = PlatformExecutorFactory.defaultExecutor as? any SchedulingExecutor {
                platform.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
            } else {
                enqueue(job)
            }
            return
        }
        let later = Self.isBelowDefault(job.priority)
        let job = UnownedJob(job)
        let deadline = Self.monotonicNanoseconds().addingClamped(Self.nanoseconds(delay))
        pthread_mutex_lock(lock)
        if deadlines.insert((job, later), at: deadline) {
            if timerStarted {
                pthread_cond_signal(deadlinesChanged)
            } else {
                timerStarted = true
                start { $0.keepDeadlines() }
            }
        }
        pthread_mutex_unlock(lock)
    }

    /// Jobs kept for their deadlines now (sleeps not yet over, or cancelled and not yet due).
    var deadlinesKept: Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return deadlines.count
    }

    /// Queues `job` and wakes a sleeping worker for it, or starts one while there are fewer than
    /// `most` (the caller holds `lock`).
    private func makeReady(_ job: UnownedJob, later: Bool) {
        if later { readyLater.push(job) } else { ready.push(job) }
        if sleeping > wakesOwed {
            wakesOwed += 1
            pthread_cond_signal(workArrived)
        } else if workers < most {
            workers += 1
            start { $0.work() }
        }
    }

    /// A worker: runs ready jobs while there are any, else sleeps until one comes.
    private func work() {
        pthread_mutex_lock(lock)
        while true {
            if let job = ready.pop() ?? readyLater.pop() {
                pthread_mutex_unlock(lock)
                job.runSynchronously(on: asUnownedTaskExecutor())
                pthread_mutex_lock(lock)
                continue
            }
            sleeping += 1
            pthread_cond_wait(workArrived, lock)
            sleeping -= 1
            if wakesOwed > 0 { wakesOwed -= 1 }
        }
    }

    /// The timer: makes each kept job ready at its deadline; sleeps without a deadline when none
    /// is kept.
    private func keepDeadlines() {
        pthread_mutex_lock(lock)
        while true {
            guard let nearest = deadlines.nearest else {
                pthread_cond_wait(deadlinesChanged, lock)
                continue
            }
            if nearest <= Self.monotonicNanoseconds() {
                while let due = deadlines.removeDue(by: Self.monotonicNanoseconds()) {
                    makeReady(due.job, later: due.later)
                }
                continue
            }
            var until = timespec(
                tv_sec: Int(nearest / 1_000_000_000), tv_nsec: Int(nearest % 1_000_000_000))
            pthread_cond_timedwait(deadlinesChanged, lock, &until)
        }
    }

    /// Starts a thread that runs `body` on this executor (which lives as long as the process).
    private func start(_ body: @escaping (TaskThreads) -> Void) {
        let context = Unmanaged.passRetained(ThreadStart(executor: self, body: body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                let start = Unmanaged<ThreadStart>.fromOpaque(context!).takeRetainedValue()
                Thread.current.name = TaskThreads.threadName
                start.body(start.executor)
                return nil
            }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<ThreadStart>.fromOpaque(context).release()
            fatalError("no thread for Swift's tasks: \(String(cString: strerror(started)))")
        }
    }

    /// Each of its threads' name (what ps, top and gdb show).
    static let threadName = "fakenft tasks"

    private final class ThreadStart {
        let executor: TaskThreads
        let body: (TaskThreads) -> Void

        init(executor: TaskThreads, body: @escaping (TaskThreads) -> Void) {
            self.executor = executor
            self.body = body
        }
    }

    /// CLOCK_MONOTONIC now, in nanoseconds (what the timer's condition variable waits on).
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// `duration` in nanoseconds: 0 when negative, at most about 290 years.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max : whole.addingClamped(UInt64(max(0, attoseconds) / 1_000_000_000))
    }
}

/// Jobs first in, first out.
private struct JobQueue {
    private var jobs: [UnownedJob] = []
    private var start = 0

    mutating func push(_ job: UnownedJob) { jobs.append(job) }

    mutating func pop() -> UnownedJob? {
        guard start < jobs.count else { return nil }
        defer {
            start += 1
            if start == jobs.count {
                jobs.removeAll(keepingCapacity: jobs.capacity <= 1024)
                start = 0
            }
        }
        return jobs[start]
    }
}

/// What waits for its deadline (nanoseconds on one clock), nearest first (a binary heap; equal
/// deadlines in the order they came).
struct DeadlineHeap<Element> {
    private struct Entry {
        let deadline: UInt64
        let order: UInt64
        let element: Element

        func comes(before other: Entry) -> Bool {
            (deadline, order) < (other.deadline, other.order)
        }
    }

    private var entries: [Entry] = []
    private var inserted: UInt64 = 0

    var nearest: UInt64? { entries.first?.deadline }
    var count: Int { entries.count }

    /// Keeps `element` until `deadline`; true when it is now the nearest.
    mutating func insert(_ element: Element, at deadline: UInt64) -> Bool {
        inserted &+= 1
        entries.append(Entry(deadline: deadline, order: inserted, element: element))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].comes(before: entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
        return child == 0
    }

    /// The nearest element if its deadline is not after `now`, removed.
    mutating func removeDue(by now: UInt64) -> Element? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first.element }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var nearest = parent
            if left < entries.count, entries[left].comes(before: entries[nearest]) { nearest = left }
            if right < entries.count, entries[right].comes(before: entries[nearest]) { nearest = right }
            guard nearest != parent else { break }
            entries.swapAt(parent, nearest)
            parent = nearest
        }
        return first.element
    }
}

extension UInt64 {
    fileprivate func addingClamped(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
