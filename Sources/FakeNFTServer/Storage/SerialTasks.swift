/// Runs async work one piece at a time, in the order it was asked for (an actor would
/// interleave work at every `await`). The work runs in its caller's task, after the work asked
/// for before it: a queue of waiting callers (``OwnerLocks`` with one owner), not a task each.
final class SerialTasks: Sendable {
    private let queue = OwnerLocks()

    /// Runs `work` after all the work asked for before it has finished.
    func run(_ work: () async throws -> Void) async throws {
        try await queue.run("") { try await work() }
    }
}
