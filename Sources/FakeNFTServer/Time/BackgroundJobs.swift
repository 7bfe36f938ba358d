import Synchronization

/// A server's work that outlives the call that starts it, owned by one task group that the
/// server's own task runs (``run()``) from before its database opens until after it closes: the
/// deadlines' look-over loop and their workers (``withDeadline``: work given up at its limit is
/// left to end here, not awaited by its caller) and PostgreSQL's connection pool. Each job has a
/// name, and those running are counted by name (`/metrics`); each can be cancelled and awaited
/// through the ``Job`` it is started as (its work runs in a child of the job's task, which waits
/// for the cancellation or the work's end: a child is what a group can cancel).
final class BackgroundJobs: Sendable {
    /// What a job is, as `/metrics` names it.
    enum Name: String, CaseIterable, Sendable {
        /// The deadlines' look-over loop (``Deadlines``).
        case deadlines
        /// Work under a deadline (``withDeadline``).
        case deadlineWork = "deadline-work"
        /// A PostgreSQL connection pool's loop.
        case postgresPool = "postgres-pool"
    }

    private let jobs: AsyncStream<@Sendable () async -> Void>.Continuation
    private let stream: AsyncStream<@Sendable () async -> Void>
    private let running = Mutex<[Name: Int]>([:])
    /// The jobs started and not yet ended, to be cancelled by ``finish()``.
    private let started = Mutex<[ObjectIdentifier: Job]>([:])
    private let ended = Atomic<Bool>(false)

    init() { (stream, jobs) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self) }

    /// Runs the jobs started (those started before it are run when it begins) until ``finish()``
    /// and the end of every job; the server's task runs it beside everything else it runs.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await job in stream { group.addTask { await job() } }
        }
        ended.store(true, ordering: .releasing)
    }

    /// True once ``run()`` has returned: finished, and every job ended.
    var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// No more jobs: those running are cancelled, and ``run()`` returns once they have ended.
    func finish() {
        jobs.finish()
        for job in started.withLock({ Array($0.values) }) { job.cancel() }
    }

    /// Runs `body` with jobs of its own running beside it (``run()``); then finishes them and
    /// waits for them at most `bound` (a pool's loop after an outage may not end when cancelled:
    /// it is left to end by itself). Whether they ended in time is told to `ended`.
    static func running<T>(
        within bound: Duration, ended: (Bool) -> Void = { _ in },
        _ body: (BackgroundJobs) async throws -> T
    ) async throws -> T {
        let jobs = BackgroundJobs()
        let running = Task { await jobs.run() }
        let result: Result<T, any Error>
        do { result = .success(try await body(jobs)) } catch { result = .failure(error) }
        jobs.finish()
        ended(await Self.wait(for: running, within: bound))
        return try result.get()
    }

    /// Whether `task` ended within `bound` (a task that does not is left running: waiting for a
    /// task's value cannot be cancelled, so the wait is a continuation's, which a cancelled
    /// caller keeps too: a stop past its grace period still waits for the jobs).
    static func wait(for task: Task<Void, Never>, within bound: Duration) async -> Bool {
        let waiting = Mutex<CheckedContinuation<Bool, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            let tell: @Sendable (Bool) -> Void = { ended in waiting.withLock { $0.take() }?.resume(returning: ended) }
            let timer = Task {
                try? await Task.sleep(for: bound)
                tell(false)
            }
            Task {
                await task.value
                timer.cancel()
                tell(true)
            }
        }
    }

    /// Jobs running now, in all.
    var count: Int { running.withLock { $0.values.reduce(0, +) } }

    /// Jobs running now, by name (every name, 0 when none runs).
    var counts: [Name: Int] {
        running.withLock { running in Dictionary(uniqueKeysWithValues: Name.allCases.map { ($0, running[$0] ?? 0) }) }
    }

    /// Runs `work` in the group under `name`; the job ends when `work` returns, or once `work`
    /// notices its cancellation after ``Job/cancel()``.
    @discardableResult
    func start(_ name: Name, _ work: @escaping @Sendable () async -> Void) -> Job {
        let job = Job()
        running.withLock { $0[name, default: 0] += 1 }
        started.withLock { $0[ObjectIdentifier(job)] = job }
        let queued = jobs.yield { [self] in
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await work()
                    job.workEnded()
                }
                await job.cancelledOrEnded()
                group.cancelAll()
            }
            running.withLock { $0[name, default: 1] -= 1 }
            started.withLock { $0[ObjectIdentifier(job)] = nil }
            job.end()
        }
        if case .terminated = queued {  // after ``finish()``: never runs
            running.withLock { $0[name, default: 1] -= 1 }
            started.withLock { $0[ObjectIdentifier(job)] = nil }
            job.end()
        }
        return job
    }

    /// One job: cancelled from outside, awaited until it has ended.
    final class Job: Sendable {
        private struct State {
            var cancelled = false
            var workEnded = false
            var ended = false
            /// The job's task, waiting for the cancellation or the work's end.
            var waiter: CheckedContinuation<Void, Never>?
            var endWaiters: [CheckedContinuation<Void, Never>] = []
        }

        private let state = Mutex(State())

        /// Cancels the job's work.
        func cancel() {
            let waiter = state.withLock { state in
                state.cancelled = true
                return state.waiter.take()
            }
            waiter?.resume()
        }

        /// Returns once the job has ended.
        func ended() async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if !state.ended { state.endWaiters.append(continuation) }
                    return state.ended
                }
                if now { continuation.resume() }
            }
        }

        /// Returns once ``cancel()`` is asked or the work has ended, whichever comes first.
        fileprivate func cancelledOrEnded() async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if !state.cancelled && !state.workEnded { state.waiter = continuation }
                    return state.cancelled || state.workEnded
                }
                if now { continuation.resume() }
            }
        }

        fileprivate func workEnded() {
            state.withLock { state in
                state.workEnded = true
                return state.waiter.take()
            }?.resume()
        }

        fileprivate func end() {
            let waiters = state.withLock { state in
                state.ended = true
                defer { state.endWaiters = [] }
                return state.endWaiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }
}
