import Synchronization

/// `work`'s result, or `expired()`'s error once `limit` has passed, whichever comes first. At the
/// limit the work is cancelled but not waited for: a query stuck on a connection the database
/// dropped (seen across a PostgreSQL restart) must not hold its caller, and with it every change
/// queued behind it. The work's task is owned here and ends when the work notices its cancellation.
/// - Parameter abandoned: asked every ``abandonedCheckInterval`` while the work runs: once it
///   gives an error (the connection the work waits on has closed, so no answer can come), the
///   work is given up at once with that error instead of at the limit.
func withDeadline<T: Sendable>(
    _ limit: Duration, expired: @escaping @Sendable () -> any Error,
    abandoned: @escaping @Sendable () -> (any Error)? = { nil },
    _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = FirstOutcome<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            outcome.wait(with: continuation)
            let worker = Task { outcome.settle(await Result { try await work() }) }
            outcome.whenSettled { worker.cancel() }
            let timer = Task {
                let clock = ContinuousClock()
                let end = clock.now + limit
                while clock.now < end {
                    try? await Task.sleep(for: min(abandonedCheckInterval, end - clock.now))
                    if Task.isCancelled { return }
                    if let error = abandoned() { return outcome.settle(.failure(error)) }
                }
                outcome.settle(.failure(expired()))
            }
            outcome.whenSettled { timer.cancel() }
        }
    } onCancel: {
        outcome.settle(.failure(CancellationError()))
    }
}

/// How often ``withDeadline(_:expired:abandoned:_:)`` asks whether its work is abandoned: work
/// that ends sooner (most queries) never asks.
let abandonedCheckInterval = Duration.milliseconds(100)

/// The first of several outcomes, handed to one continuation; the later ones are dropped.
private final class FirstOutcome<T: Sendable>: Sendable {
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

extension Result where Failure == any Error {
    /// The result of `body`, thrown errors included.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
