import Synchronization

/// The read model readers see, and how it moves forward: one step at a time (``advance(_:)``:
/// a step reads what changed and publishes the next model, so the model only ever moves
/// forward), each model published whole (``publish(_:)``), and readers waiting for a
/// generation (``wait(for:within:)``) woken when a model that new is published, when their
/// patience ends (``Deadlines`` watch it) or when their task is cancelled.
final class PublishedModel: Sendable {
    private struct Reader {
        var generation: Int
        var continuation: CheckedContinuation<Bool, Never>
        /// The watch over its patience, lifted when it is woken sooner.
        var watch: Int?
    }

    private struct State {
        var model: ReadModel
        /// Models published after the first.
        var publication = 0
        var nextReader = 0
        var readers: [Int: Reader] = [:]
        /// Whether a step is under way; the steps waiting for it, in arrival order.
        var stepping = false
        var steps: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>
    private let deadlines: Deadlines

    init(_ model: ReadModel, deadlines: Deadlines) {
        state = Mutex(State(model: model))
        self.deadlines = deadlines
    }

    /// The model readers see now.
    var latest: ReadModel { state.withLock { $0.model } }

    /// The generation of ``latest``, without copying the model (read for every answer's header).
    var generation: Int { state.withLock { $0.model.generation } }

    /// Which model ``latest`` is: a number no two share (unlike the generation, which a reseed
    /// numbers from the start again). Read before a model is: that model is this one or a later one.
    var publication: Int { state.withLock { $0.publication } }

    /// The ``EncodedTable/revision`` of `catalog` in ``latest``, without copying the model.
    func revision(of catalog: ReadModel.Catalog) -> Int { state.withLock { $0.model[catalog: catalog].revision } }

    /// Runs `step` once the steps asked for before it are done, in arrival order, in the caller's
    /// task (a queue of waiting callers: an actor would interleave steps at every `await`).
    func advance<T: Sendable>(_ step: () async throws -> T) async throws -> T {
        await withCheckedContinuation { continuation in
            let free = state.withLock { state in
                guard state.stepping else {
                    state.stepping = true
                    return true
                }
                state.steps.append(continuation)
                return false
            }
            if free { continuation.resume() }
        }
        defer {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.steps.isEmpty else {
                    state.stepping = false
                    return nil
                }
                return state.steps.removeFirst()
            }
            next?.resume()
        }
        return try await step()
    }

    /// Makes `model` the one readers see and wakes those waiting for its generation or an older
    /// one (a reseed may number from the start again).
    func publish(_ model: ReadModel) {
        let woken = state.withLock { state -> [Reader] in
            state.model = model
            state.publication += 1
            guard !state.readers.isEmpty else { return [] }
            let due = state.readers.filter { $0.value.generation <= model.generation }
            for id in due.keys { state.readers[id] = nil }
            return Array(due.values)
        }
        for reader in woken {
            if let watch = reader.watch { deadlines.lift(watch) }
            reader.continuation.resume(returning: true)
        }
    }

    /// True once a model of `generation` or newer is published; false when `patience` ran out
    /// first (up to a tick of the deadlines' late) or the task is cancelled.
    func wait(for generation: Int, within patience: Duration) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextReader += 1 }
            return state.nextReader
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = state.withLock { state in
                    if state.model.generation >= generation { return true }
                    // cancelled before it was noted: the handler found nothing to wake
                    if Task.isCancelled { return false }
                    state.readers[id] = Reader(generation: generation, continuation: continuation)
                    return nil
                }
                if let answer { return continuation.resume(returning: answer) }
                let watch = deadlines.watch(for: patience) { [self] passed in
                    if passed { giveUp(id) }
                }
                let woken = state.withLock { state in
                    state.readers[id]?.watch = watch
                    return state.readers[id] == nil
                }
                if woken { deadlines.lift(watch) }
            }
        } onCancel: {
            giveUp(id)
        }
    }

    /// Wakes the reader `id` with false, if it is still waiting.
    private func giveUp(_ id: Int) {
        let reader = state.withLock { $0.readers.removeValue(forKey: id) }
        if let watch = reader?.watch { deadlines.lift(watch) }
        reader?.continuation.resume(returning: false)
    }
}
