import Synchronization

/// `work`'s result, or `expired()`'s error once `limit` has passed, whichever comes first. At the
/// limit the work is cancelled but not waited for: a query stuck on a connection the database
/// dropped (seen across a PostgreSQL restart) must not hold its caller, and with it every change
/// queued behind it. The work runs as a job of the server's ``BackgroundJobs`` (`deadlines`'),
/// which ends when the work notices its cancellation.
/// The limit is watched by `deadlines`: it passes up to a tick late.
/// - Parameters:
///   - abandoned: asked at each tick while the work runs: once it gives an error (the
///     connection the work waits on has closed, so no answer can come), the work is given up at
///     once with that error instead of at the limit.
///   - cancellable: whether the caller's cancellation gives the work up; when false, a cancelled
///     caller still waits for the work's outcome or the limit (work not the caller's alone: a
///     batch of several writers' changes, which must not fail for one who left).
func withDeadline<T: Sendable>(
    _ limit: Duration, expired: @escaping @Sendable () -> any Error,
    abandoned: @escaping @Sendable () -> (any Error)? = { nil }, cancellable: Bool = true,
    deadlines: Deadlines, _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Deadlines.FirstOutcome<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            outcome.wait(with: continuation)
            let worker = deadlines.jobs.start(.deadlineWork) {
                outcome.settle(await Result { try await work() })
            }
            outcome.whenSettled { worker.cancel() }
            let watch = deadlines.watch(for: limit) { passed in
                if passed {
                    outcome.settle(.failure(expired()))
                } else if let error = abandoned() {
                    outcome.settle(.failure(error))
                }
            }
            outcome.whenSettled { deadlines.lift(watch) }
        }
    } onCancel: {
        if cancellable { outcome.settle(.failure(CancellationError())) }
    }
}

/// Deadlines set by the thousand and nearly all lifted before they pass (one for each query, each
/// request body, each wait for a generation), kept in one table that one task looks over every
/// ``tick``, instead of a timer each (which cost more: docs/benchmarks.md, "Tried and not kept").
/// A deadline passes up to a tick late. The loop is a job of the server's ``BackgroundJobs`` that
/// runs only while a deadline is set; the work under a deadline runs there too. Time is the
/// clock's given at creation: the server's is the continuous clock, a test's one it moves itself.
final class Deadlines: Sendable {
    /// What a watch is told at each tick: whether its limit has passed (then it is told no more).
    typealias Look = @Sendable (_ passed: Bool) -> Void

    /// The server's: a tick of 25 ms on the continuous clock.
    static let tick = Duration.milliseconds(25)

    let tick: Duration
    /// Where the look-over loop and the work under a deadline run.
    let jobs: BackgroundJobs
    /// The time since this table was made, by its clock.
    private let elapsed: @Sendable () -> Duration
    /// Sleeps for a duration, by the table's clock.
    private let sleep: @Sendable (Duration) async throws -> Void

    private struct Watch {
        var end: Duration
        var look: Look
    }

    private struct State {
        var lastID = 0
        var watches: [Int: Watch] = [:]
        var looking = false
    }

    private let state = Mutex(State())

    init<C: Clock<Duration>>(tick: Duration = Deadlines.tick, clock: C = ContinuousClock(), jobs: BackgroundJobs) {
        self.tick = tick
        self.jobs = jobs
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleep = { try await clock.sleep(for: $0) }
    }

    /// Calls `look(false)` at each tick until `limit` has passed, then `look(true)`, unless the
    /// watch is lifted first; returns the watch, for ``lift(_:)``.
    func watch(for limit: Duration, _ look: @escaping Look) -> Int {
        let end = elapsed() + limit
        let (id, start) = state.withLock { state in
            state.lastID += 1
            state.watches[state.lastID] = Watch(end: end, look: look)
            defer { state.looking = true }
            return (state.lastID, !state.looking)
        }
        if start { jobs.start(.deadlines) { await self.lookOver() } }
        return id
    }

    /// Watches set and not yet passed or lifted.
    var watching: Int { state.withLock { $0.watches.count } }

    func lift(_ watch: Int) { _ = state.withLock { $0.watches.removeValue(forKey: watch) } }

    /// Tells every watch at each tick whether its limit has passed; ends once none is left.
    private func lookOver() async {
        while true {
            try? await sleep(tick)
            let now = elapsed()
            let looks = state.withLock { state -> [(Look, Bool)]? in
                guard !state.watches.isEmpty else {
                    state.looking = false
                    return nil
                }
                let looks = state.watches.values.map { ($0.look, $0.end <= now) }
                state.watches = state.watches.filter { $0.value.end > now }
                return looks
            }
            guard let looks else { return }
            for (look, passed) in looks { look(passed) }
        }
    }
}

extension Deadlines {
    /// The first of several outcomes, handed to one continuation; the later ones are dropped.
    fileprivate final class FirstOutcome<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var settled: Result<T, any Error>?
            var cleanUps: [@Sendable () -> Void] = []
        }

        private let state = Mutex(State())

        func wait(with continuation: CheckedContinuation<T, any Error>) {
            let settled = state.withLock { state in
                state.continuation = continuation
                return state.settled
            }
            if let settled { continuation.resume(with: settled) }
        }

        /// Runs `cleanUp` once an outcome is in (at once if it is already).
        func whenSettled(_ cleanUp: @escaping @Sendable () -> Void) {
            let now = state.withLock { state in
                if state.settled != nil { return true }
                state.cleanUps.append(cleanUp)
                return false
            }
            if now { cleanUp() }
        }

        func settle(_ result: Result<T, any Error>) {
            let (continuation, cleanUps) = state.withLock {
                state -> (CheckedContinuation<T, any Error>?, [@Sendable () -> Void]) in
                guard state.settled == nil else { return (nil, []) }
                state.settled = result
                defer {
                    state.continuation = nil
                    state.cleanUps = []
                }
                return (state.continuation, state.cleanUps)
            }
            continuation?.resume(with: result)
            for cleanUp in cleanUps { cleanUp() }
        }
    }
}

extension Result where Failure == any Error {
    /// The result of `body`, thrown errors included.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
