import Synchronization

/// Writes that come together go to the database together: at most ``most`` batches run at
/// once, and a write that finds them all running waits and goes with the next batch, with every
/// other write that came meanwhile (up to ``largest``). No task of its own: the first write of a
/// batch runs it (it *leads*), and hands the next batch to the first write waiting. A lone write
/// goes at once, alone; under load, one commit (and one flush to disk) carries many writes.
final class ChangeBatches<Item: Sendable, Answer: Sendable>: Sendable {
    /// How each batch is written: one answer per item, in the items' order.
    typealias Run = @Sendable ([Item]) async -> [Result<Answer, any Error>]

    /// What a waiting write is woken with: its answer, or its turn to lead the next batch.
    private enum Turn: Sendable {
        case answered(Result<Answer, any Error>)
        case lead
    }

    private struct Entry {
        var id: Int
        var item: Item
        /// Nil for the write that leads the batch: it answers itself.
        var waiting: CheckedContinuation<Turn, Never>?
    }

    private struct State {
        var pending: [Entry] = []
        var running = 0
        var nextID = 0
    }

    /// Batches running at once at most.
    let most: Int
    /// Items in one batch at most.
    let largest: Int
    private let state = Mutex(State())

    init(most: Int, largest: Int) {
        precondition(most > 0 && largest > 0)
        self.most = most
        self.largest = largest
    }

    /// Writes `item` with whatever else is written meanwhile, through `run` (the leader's), and
    /// returns its answer. `run` runs in a task of its own: a write whose request is cancelled
    /// does not cancel the others in its batch.
    func write(_ item: Item, by run: @escaping Run) async throws -> Answer {
        var id = 0
        let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let leads = state.withLock { state in
                id = state.nextID
                state.nextID += 1
                // Invariant: writes wait only while every batch runs; so when one may start, none waits.
                if state.running < most {
                    state.running += 1
                    state.pending.append(Entry(id: id, item: item, waiting: nil))
                    return true
                }
                state.pending.append(Entry(id: id, item: item, waiting: continuation))
                return false
            }
            if leads { continuation.resume(returning: .lead) }
        }
        switch turn {
        case .answered(let answer): return try answer.get()
        case .lead: return try await lead(id, run).get()
        }
    }

    /// Runs the batch that begins with the write `id`, hands the next batch on, answers the
    /// batch's other writes and returns the write's own answer.
    private func lead(_ id: Int, _ run: @escaping Run) async -> Result<Answer, any Error> {
        let batch = state.withLock { state in
            let count = min(largest, state.pending.count)
            defer { state.pending.removeFirst(count) }
            return Array(state.pending.prefix(count))
        }
        let items = batch.map(\.item)
        var answers = await Task { await run(items) }.value
        if answers.count != batch.count {
            answers = batch.map { _ in .failure(StoreError.damaged("a batch of changes came back with other answers")) }
        }
        let next = state.withLock { state -> CheckedContinuation<Turn, Never>? in
            guard !state.pending.isEmpty else {
                state.running -= 1
                return nil
            }
            defer { state.pending[0].waiting = nil }  // it leads: it answers itself
            return state.pending[0].waiting
        }
        next?.resume(returning: .lead)
        var own: Result<Answer, any Error> = .failure(StoreError.damaged("a change left out of its batch"))
        for (entry, answer) in zip(batch, answers) {
            if entry.id == id { own = answer } else { entry.waiting?.resume(returning: .answered(answer)) }
        }
        return own
    }
}
