import Synchronization

/// Readers waiting for the read model to reach a generation: each is woken when a model that
/// new is published, when its patience ends (``deadlines`` watch it), or when its task is
/// cancelled.
final class PublishedGeneration: Sendable {
    private let deadlines: Deadlines

    init(deadlines: Deadlines = .shared) { self.deadlines = deadlines }

    private struct Waiting {
        var generation: Int
        var continuation: CheckedContinuation<Bool, Never>
        /// The watch over its patience, lifted when it is woken sooner.
        var watch: Int?
    }

    private struct State {
        var reached = 0
        var nextID = 0
        var waiting: [Int: Waiting] = [:]
    }

    private let state = Mutex(State())

    /// True once a model of `generation` or newer is published; false when `patience` ran out
    /// first (up to a tick of the deadlines' late) or the task is cancelled.
    func wait(for generation: Int, within patience: Duration) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = state.withLock { state in
                    if state.reached >= generation { return true }
                    // cancelled before it was noted: the handler found nothing to wake
                    if Task.isCancelled { return false }
                    state.waiting[id] = Waiting(generation: generation, continuation: continuation)
                    return nil
                }
                if let answer { return continuation.resume(returning: answer) }
                let watch = deadlines.watch(for: patience) { [self] passed in
                    if passed { giveUp(id) }
                }
                let woken = state.withLock { state in
                    state.waiting[id]?.watch = watch
                    return state.waiting[id] == nil
                }
                if woken { deadlines.lift(watch) }
            }
        } onCancel: {
            giveUp(id)
        }
    }

    /// The generation of the model readers see now (one small lock: read for every answer's header).
    var current: Int { state.withLock { $0.reached } }

    /// A model of `generation` is readers' now (a reseed may number from the start again):
    /// everyone waiting for it or an older one goes on.
    func reached(_ generation: Int) {
        let woken = state.withLock { state -> [Waiting] in
            state.reached = generation
            guard !state.waiting.isEmpty else { return [] }
            let due = state.waiting.filter { $0.value.generation <= generation }
            for id in due.keys { state.waiting[id] = nil }
            return Array(due.values)
        }
        for waiting in woken {
            if let watch = waiting.watch { deadlines.lift(watch) }
            waiting.continuation.resume(returning: true)
        }
    }

    /// Wakes the reader `id` with false, if it is still waiting.
    private func giveUp(_ id: Int) {
        let waiting = state.withLock { $0.waiting.removeValue(forKey: id) }
        if let watch = waiting?.watch { deadlines.lift(watch) }
        waiting?.continuation.resume(returning: false)
    }
}
