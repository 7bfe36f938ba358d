import Synchronization

/// The changes a read model takes in, by generation, whichever way they came: this server's own
/// as they commit (``hold(_:as:)``), other writers' as they are seen (``arrived(_:rows:)``, with
/// their rows when those came along). The last ``capacity`` with rows are held (a ring: an older
/// one is read back from the database). Each generation the store should catch up through is told
/// on ``told``, a buffer of one: a slow catch-up finds the newest when it is done.
final class ChangeLog: Sendable {
    static let capacity = 1_024

    private enum Source {
        case committed
        case arrived
    }

    private struct State {
        var slots = [(generation: Int, rows: ChangedRows, source: Source)?](repeating: nil, count: capacity)
        /// Writes of this server under way (``writing(_:)``).
        var writing = 0
        /// The newest generation another writer committed while this server's were written.
        var untold: Int?
    }

    private let state = Mutex(State())
    /// The generations to catch up through, newest only.
    let told: AsyncStream<Int>
    private let tell: AsyncStream<Int>.Continuation

    init() { (told, tell) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1)) }

    /// This server's own change, as committed.
    func hold(_ rows: ChangedRows, as generation: Int) {
        state.withLock { $0.slots[Self.slot(generation)] = (generation, rows, .committed) }
    }

    /// Another writer's change of `generation` (`Int.max`: changes may have been missed), with
    /// its rows when they came with it. Told at once, unless this server's writes are under way:
    /// then once they are held (their answer and this change race; told first, the store would
    /// find a gap, their own, and read back from the database what is on its way).
    func arrived(_ generation: Int, rows: ChangedRows?) {
        let now = state.withLock { state -> Bool in
            if let rows, generation != .max { state.slots[Self.slot(generation)] = (generation, rows, .arrived) }
            guard state.writing == 0 else {
                state.untold = max(state.untold ?? generation, generation)
                return false
            }
            return true
        }
        if now { tell.yield(generation) }
    }

    /// Runs `write` (this server's writes, which ``hold(_:as:)`` what they commit before they
    /// return): other writers' changes that arrive meanwhile are told after it.
    func writing<T>(_ write: () async throws -> T) async rethrows -> T {
        state.withLock { $0.writing += 1 }
        defer {
            let untold = state.withLock { state -> Int? in
                state.writing -= 1
                return state.writing == 0 ? state.untold.take() : nil
            }
            if let untold { tell.yield(untold) }
        }
        return try await write()
    }

    /// The changes right after `generation`, in order, as far as they run without a gap.
    func run(after generation: Int) -> [CommittedChange] {
        state.withLock { state in
            var run: [CommittedChange] = []
            var next = generation &+ 1
            while run.count < Self.capacity, let slot = state.slots[Self.slot(next)], slot.generation == next {
                run.append(CommittedChange(generation: next, rows: slot.rows, byOtherServer: slot.source == .arrived))
                next &+= 1
            }
            return run
        }
    }

    private static func slot(_ generation: Int) -> Int { Int(UInt(bitPattern: generation) % UInt(capacity)) }
}
