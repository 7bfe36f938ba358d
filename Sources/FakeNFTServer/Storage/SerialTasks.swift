import Synchronization

/// Runs async work one piece at a time, in the order it was asked for (an actor would
/// interleave work at every `await`).
final class SerialTasks: Sendable {
    private let tail = Mutex<Task<Void, Never>?>(nil)

    /// Runs `work` after all the work asked for before it has finished.
    func run(_ work: @escaping @Sendable () async throws -> Void) async throws {
        let task = tail.withLock { tail in
            let previous = tail
            let task = Task<Result<Void, any Error>, Never> {
                await previous?.value
                do { return .success(try await work()) } catch { return .failure(error) }
            }
            tail = Task { _ = await task.value }
            return task
        }
        try await task.value.get()
    }
}
