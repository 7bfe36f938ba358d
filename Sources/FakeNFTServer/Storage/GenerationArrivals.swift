import Synchronization

/// Readers waiting for the read model to reach a generation: each is woken when a model that
/// new is published, when its patience ends, or when its task is cancelled.
final class GenerationArrivals: Sendable {
    private struct Waiting {
        var generation: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var reached = 0
        var nextID = 0
        var waiting: [Int: Waiting] = [:]
    }

    private let state = Mutex(State())

    /// True once a model of `generation` or newer is published; false when `patience` ran out first.
    func wait(for generation: Int, within patience: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.arrival(of: generation) }
            group.addTask {
                try? await Task.sleep(for: patience)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// The generation of the model readers see now (one small lock: read for every answer's header).
    var current: Int { state.withLock { $0.reached } }

    /// A model of `generation` is readers' now (a reseed may number from the start again):
    /// everyone waiting for it or an older one goes on.
    func reached(_ generation: Int) {
        let woken = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.reached = generation
            let due = state.waiting.filter { $0.value.generation <= generation }
            for id in due.keys { state.waiting[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    /// Waits for a model of `generation`; false when the task is cancelled first.
    private func arrival(of generation: Int) async -> Bool {
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
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiting = state.withLock { $0.waiting.removeValue(forKey: id) }
            waiting?.continuation.resume(returning: false)
        }
    }
}
