import Synchronization

/// A clock that moves only when a test moves it (``advance(by:)``), so that code which waits on
/// time is tested without waiting: a busy machine makes such a test slower, never wrong.
public final class TestClock: Clock, Sendable {
    /// A moment of this clock: the time since it was made.
    public struct Instant: InstantProtocol {
        let sinceStart: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(sinceStart: sinceStart + duration) }
        public func duration(to other: Instant) -> Duration { other.sinceStart - sinceStart }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.sinceStart < rhs.sinceStart }
    }

    private struct Sleeper {
        var until: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(sinceStart: .zero)
        var lastID = 0
        var sleepers: [Int: Sleeper] = [:]
        /// Tests waiting for a number of sleepers.
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// The watchers whose count of sleepers is reached now, no longer waiting.
        mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            let satisfied = watchers.filter { $0.count <= sleepers.count }
            watchers.removeAll { $0.count <= sleepers.count }
            return satisfied.map(\.continuation)
        }
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// Returns once the clock has been moved to `deadline` (at once if it is there already).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (due, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if deadline <= state.now || Task.isCancelled { return (true, []) }
                    state.sleepers[id] = Sleeper(until: deadline, continuation: continuation)
                    return (false, state.satisfiedWatchers())
                }
                for watcher in watchers { watcher.resume() }
                if due { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves the clock on by `duration`, waking every sleeper whose moment it reaches.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.until <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Tasks sleeping on this clock now.
    public var sleeping: Int { state.withLock { $0.sleepers.count } }

    /// When the tasks sleeping now wake, as times since the clock was made, soonest first: which
    /// wait the code under test has come round to.
    public var wakeTimes: [Duration] { state.withLock { $0.sleepers.values.map(\.until.sinceStart).sorted() } }

    /// Returns once at least `count` tasks sleep on this clock: the code under test has come
    /// round to waiting, so moving the clock now wakes it.
    public func sleepers(_ count: Int = 1) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state in
                if state.sleepers.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }
}
