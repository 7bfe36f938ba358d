import Synchronization

/// Work of one key one piece at a time, in arrival order, each in its caller's task (a queue of
/// waiting callers, not a task each; an actor would interleave work at every `await`). A server's
/// own changes to one owner's rows then never race each other to the database (each finds the
/// rows it wrote last, one round trip), while changes of different owners run side by side; and
/// the read model catches up one run at a time, so it only ever moves forward.
final class TurnsByKey: Sendable {
    /// For each key with work running, the work waiting for it.
    private let waiting = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    /// Runs `body` once the work of `key` asked for before it is done.
    func run<T: Sendable>(_ key: String, _ body: () async throws -> T) async throws -> T {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    private func acquire(_ key: String) async {
        await withCheckedContinuation { continuation in
            let free = waiting.withLock { waiting in
                guard waiting[key] != nil else {
                    waiting[key] = []
                    return true
                }
                waiting[key]?.append(continuation)
                return false
            }
            if free { continuation.resume() }
        }
    }

    private func release(_ key: String) {
        let next = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
            guard var queue = waiting[key], !queue.isEmpty else {
                waiting[key] = nil
                return nil
            }
            let next = queue.removeFirst()
            waiting[key] = queue
            return next
        }
        next?.resume()
    }
}
