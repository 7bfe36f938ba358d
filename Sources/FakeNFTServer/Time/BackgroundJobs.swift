import Synchronization

/// The server's work that outlives the call that starts it, owned by one task group for the life
/// of the process: the deadlines' look-over loop and their workers (``withDeadline``: work given up
/// at its limit is left to end here, not awaited by its caller) and PostgreSQL's connection pools.
/// Each job has a name, and those running are counted by name (`/metrics`); each can be cancelled
/// and awaited through the ``Job`` it is started as (its work runs in a child of the job's task,
/// which waits for the cancellation or the work's end: a child is what a group can cancel).
final class BackgroundJobs: Sendable {
    static let shared = BackgroundJobs()

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
    private let running = Mutex<[Name: Int]>([:])

    init() {
        let (stream, jobs) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
        self.jobs = jobs
        // The group's own task, the one no caller owns: it runs for the life of the process.
        Task.detached {
            await withDiscardingTaskGroup { group in
                for await job in stream { group.addTask { await job() } }
            }
        }
    }

    deinit { jobs.finish() }

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
        jobs.yield { [self] in
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await work()
                    job.workEnded()
                }
                await job.cancelledOrEnded()
                group.cancelAll()
            }
            running.withLock { $0[name, default: 1] -= 1 }
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
