import Synchronization

/// This server's changes of owners' rows, on either database: each made on the owner's rows as
/// this server last wrote them (held here), else as read now, and written together with the
/// changes that come meanwhile (``ChangeBatches``: one transaction, one flush to disk for many);
/// the database writes one only while its rows are still those it was made on. A change whose
/// rows moved on (another writer's change), or whose rules refused rows that may be old, is made
/// again on the rows read first; one that loses twice runs with its rows locked. What commits is
/// held in the ``ChangeLog`` before its writer goes on (docs/storage.md, "A change").
final class ChangeWriter: Sendable {
    private let database: any StoreDatabase
    private let log: ChangeLog
    /// Each owner's rows as this server last wrote them: the base of its next change.
    private let known = Mutex<[String: OwnerRows]>([:])
    /// Up to 64 changes a batch (on PostgreSQL a batch's notifications carry up to 8,000 bytes
    /// each), one of each owner: the next is made on the rows the one before committed, never on
    /// rows not committed, whose versions another writer may take.
    private let batches: ChangeBatches<Request, Answer>

    init(database: any StoreDatabase, log: ChangeLog, deadlines: Deadlines) {
        self.database = database
        self.log = log
        batches = ChangeBatches(largest: 64, deadlines: deadlines, key: \.owner)
    }

    /// Runs `rules` on `owner`'s rows and writes what they changed; returns the rows as committed,
    /// what `rules` returned and the change's scope (with its generation).
    func change<Outcome: Sendable>(owner: String, _ rules: @escaping @Sendable (inout OwnerRows) throws -> Outcome)
        async throws -> (rows: OwnerRows, outcome: Outcome, scope: ChangeScope)
    {
        let made: MadeChange, generation: Int
        if let committed = try await inBatches(owner: owner, rules) {
            (made, generation) = committed
        } else {
            (made, generation) = try await log.writing {
                let locked = try await database.writeLocked(owner: owner) { rows in
                    try MadeChange(on: rows) { try rules(&$0) }
                }
                log.hold(locked.made.shown, as: locked.generation)
                return locked
            }
            known.withLock { $0[owner] = made.rows }
        }
        guard let outcome = made.outcome as? Outcome else { throw StoreError.damaged("an outcome of another type") }
        return (made.rows, outcome, made.scope(generation))
    }

    /// Writes a new owner's `rows` (a sign-up) with the changes that come meanwhile: its scope;
    /// nil when the owner has rows, or its row in `/users` is no longer numbered last (another
    /// writer's sign-up came first). Throws ``StoreError/emailTaken`` when the address has an account.
    func create(_ rows: OwnerRows) async throws -> ChangeScope? {
        let request = Request(owner: rows.profile.id, readFirst: false, new: rows) { _ in () }
        let answer = try await batches.write(request) { [self] in await writeBatch($0) }
        guard case .committed(let made, let generation) = answer else { return nil }
        return made.scope(generation)
    }

    /// Other writers changed these owners' rows: their next change here reads them first.
    func forget(_ owners: some Sequence<String>) {
        known.withLock { known in for owner in owners { known[owner] = nil } }
    }

    /// Everything was read again (a reseed may have numbered versions again).
    func forgetAll() { known.withLock { $0 = [:] } }

    /// The change on the rows known here, then on the rows as they are; nil when it lost both times.
    private func inBatches(owner: String, _ rules: @escaping @Sendable (inout OwnerRows) throws -> any Sendable)
        async throws -> (made: MadeChange, generation: Int)?
    {
        for readFirst in [false, true] {
            let answer = try await batches.write(Request(owner: owner, readFirst: readFirst, new: nil, rules: rules)) {
                [self] in await writeBatch($0)
            }
            if case .committed(let made, let generation) = answer { return (made, generation) }
        }
        return nil
    }

    /// One change asked of a batch: the rules to run on `owner`'s rows, and whether those rows
    /// must be read first (the rows known here moved on, or were refused); or a new owner's rows.
    private struct Request: Sendable {
        var owner: String
        var readFirst: Bool
        var new: OwnerRows?
        var rules: @Sendable (inout OwnerRows) throws -> any Sendable
    }

    /// What a batch answers a change that did not fail.
    private enum Answer: Sendable {
        case committed(MadeChange, generation: Int)
        /// To make again on the rows read first (made on rows that moved on, or refused on old ones).
        case again
    }

    /// The batch's leader makes each change and writes them together: each on its owner's rows as
    /// known here, else as read now (one query for every owner to read). What commits is held in
    /// the log before any of the batch's writers goes on: the read model takes changes in order,
    /// and a writer's own may come after others of the batch.
    private func writeBatch(_ requests: [Request]) async -> [Result<Answer, any Error>] {
        let knownRows = known.withLock { known in requests.map { $0.readFirst ? nil : known[$0.owner] } }
        let toRead = Set(zip(requests, knownRows).filter { $0.new == nil && $1 == nil }.map(\.0.owner))
        var read: [String: OwnerRows] = [:]
        do { if !toRead.isEmpty { read = try await database.owned(by: toRead) } } catch {
            return requests.map { _ in .failure(error) }
        }
        var answers: [Result<Answer, any Error>] = requests.map { _ in .success(.again) }
        var made: [(index: Int, change: MadeChange)] = []
        for (index, (request, knownRows)) in zip(requests, knownRows).enumerated() {
            if let new = request.new {
                do { made.append((index, try MadeChange(new: new))) } catch { answers[index] = .failure(error) }
                continue
            }
            let asTheyAre = read[request.owner]
            guard let before = asTheyAre ?? knownRows else { continue }
            do { made.append((index, try MadeChange(on: before, request.rules))) } catch {
                // refused on the rows as they are: the answer; on rows that may be old: made again
                if asTheyAre != nil { answers[index] = .failure(error) }
            }
        }
        let written: [Result<Int?, any Error>] =
            made.isEmpty
            ? []
            : await log.writing {
                let written = await database.write(made.map(\.change))
                for (change, result) in zip(made, written) {
                    if case .success(let generation?) = result { log.hold(change.change.shown, as: generation) }
                }
                return written
            }
        known.withLock { known in
            for ((index, change), result) in zip(made, written) {
                let generation = try? result.get()
                known[change.owner] = generation == nil ? nil : change.rows
                answers[index] = result.map { written in written.map { .committed(change, generation: $0) } ?? .again }
            }
        }
        return answers
    }
}
