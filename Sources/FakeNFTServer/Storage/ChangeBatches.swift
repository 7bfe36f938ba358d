import Synchronization

/// Writes that come together go to the database together: one batch at a time, and a write that
/// finds one running waits and goes with the next, with every other write that came meanwhile
/// (up to ``largest``, one of each key: a later write of a key in the batch waits for the next
/// one, in order). No task of its own: the first write of a batch runs it (it *leads*), and
/// hands the next batch to the first write waiting. A lone write goes at once, alone; under
/// load, one commit (and one flush to disk) carries many.
final class ChangeBatches<Item: Sendable, Answer: Sendable>: Sendable {
    /// How each batch is written: one answer per item, in the items' order.
    typealias Run = @Sendable ([Item]) async -> [Result<Answer, any Error>]

    /// What a waiting write is woken with: its answer, or a batch to lead, its own write first.
    private enum Turn: Sendable {
        case answered(Result<Answer, any Error>)
        case lead([Entry])
    }

    private struct Entry: Sendable {
        var item: Item
        var waiting: CheckedContinuation<Turn, Never>
    }

    private struct State {
        var pending: [Entry] = []
        var running = false

        /// After `first`, waiting writes of keys not yet taken, in order, up to `count` in all,
        /// no longer waiting.
        mutating func takeBatch(_ count: Int, after first: [Entry] = [], key: (Item) -> String) -> [Entry] {
            var taken = first, keys = Set(first.map { key($0.item) }), left: [Entry] = []
            for entry in pending {
                if taken.count < count, keys.insert(key(entry.item)).inserted {
                    taken.append(entry)
                } else {
                    left.append(entry)
                }
            }
            pending = left
            return taken
        }
    }

    /// Items in one batch at most.
    let largest: Int
    /// The longest a batch is waited for (each of its queries has its own, shorter, deadline).
    static var longest: Duration { .seconds(60) }
    /// What no two items of a batch share.
    private let key: @Sendable (Item) -> String
    /// What bounds a batch's wait.
    private let deadlines: Deadlines
    private let state = Mutex(State())

    init(largest: Int, deadlines: Deadlines, key: @escaping @Sendable (Item) -> String) {
        precondition(largest > 0)
        self.largest = largest
        self.deadlines = deadlines
        self.key = key
    }

    /// Writes waiting for a batch now.
    var waiting: Int { state.withLock { $0.pending.count } }

    /// Writes `item` with whatever else is written meanwhile, through `run` (the leader's), and
    /// returns its answer. `run` is not cancelled with its leader: a write whose request is cancelled
    /// does not cancel the others in its batch.
    func write(_ item: Item, by run: @escaping Run) async throws -> Answer {
        let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let own = Entry(item: item, waiting: continuation)
            let batch = state.withLock { state -> [Entry]? in
                guard !state.running else {
                    state.pending.append(own)
                    return nil
                }
                state.running = true
                return state.takeBatch(largest, after: [own], key: key)
            }
            if let batch { continuation.resume(returning: .lead(batch)) }
        }
        switch turn {
        case .answered(let answer): return try answer.get()
        case .lead(let batch): return try await lead(batch, run).get()
        }
    }

    /// Runs `batch` (its first write is the caller's), hands the next batch to the first write
    /// waiting, answers the batch's other writes and returns the caller's own answer. A batch is
    /// taken from the waiting writes in the same step that gives it a leader, so no write is
    /// ever in two batches or in none.
    private func lead(_ batch: [Entry], _ run: @escaping Run) async -> Result<Answer, any Error> {
        let items = batch.map(\.item)
        // The batch is not the leader's alone: a leader whose request is cancelled still waits
        // for it (bounded, as each of its queries is), so that no write of it fails for one who left.
        var answers: [Result<Answer, any Error>]
        do {
            answers = try await withDeadline(
                Self.longest, expired: { StoreError.unavailable("a batch took over \(Self.longest)") },
                cancellable: false, deadlines: deadlines
            ) { await run(items) }
        } catch {
            answers = batch.map { _ in .failure(error) }
        }
        if answers.count != batch.count {
            answers = batch.map { _ in .failure(StoreError.damaged("a batch of changes came back with other answers")) }
        }
        let next = state.withLock { state -> [Entry]? in
            guard !state.pending.isEmpty else {
                state.running = false
                return nil
            }
            return state.takeBatch(largest, key: key)
        }
        if let next, let first = next.first { first.waiting.resume(returning: .lead(next)) }
        for (entry, answer) in zip(batch, answers).dropFirst() { entry.waiting.resume(returning: .answered(answer)) }
        return answers[0]
    }
}
