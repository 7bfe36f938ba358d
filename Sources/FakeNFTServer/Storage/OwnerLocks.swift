import Synchronization

/// One change at a time per owner within this server, in arrival order: a server's own changes
/// to one profile then never race each other to the database (each finds the rows it wrote last,
/// one round trip), while changes of different owners run side by side.
final class OwnerLocks: Sendable {
    /// For each owner with a change running, the changes waiting for it.
    private let waiting = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    /// Runs `body` once the changes of `owner` before it are done.
    func run<T: Sendable>(_ owner: String, _ body: () async throws -> T) async throws -> T {
        await acquire(owner)
        defer { release(owner) }
        return try await body()
    }

    private func acquire(_ owner: String) async {
        await withCheckedContinuation { continuation in
            let free = waiting.withLock { waiting in
                guard waiting[owner] != nil else {
                    waiting[owner] = []
                    return true
                }
                waiting[owner]?.append(continuation)
                return false
            }
            if free { continuation.resume() }
        }
    }

    private func release(_ owner: String) {
        let next = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
            guard var queue = waiting[owner], !queue.isEmpty else {
                waiting[owner] = nil
                return nil
            }
            let next = queue.removeFirst()
            waiting[owner] = queue
            return next
        }
        next?.resume()
    }
}
