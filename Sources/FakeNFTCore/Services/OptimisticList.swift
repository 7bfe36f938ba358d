/// A list of ids changed optimistically on the client and synchronised with the server one
/// request at a time (likes, the cart).
///
/// A change shows at once; requests are chained so that fast toggles are never lost or sent
/// out of order: each request sends the latest wanted list. When the server says the list
/// changed elsewhere (``APIError/versionConflict``), the list is reloaded and only this
/// client's own changes (ids added, ids removed) are applied again to it before retrying, so
/// two clients changing different ids never undo each other. When the server cannot be reached,
/// the changes are kept (``ChangeKept``: shown, and handed to `kept` to be written down) and sent
/// by ``sendKept()`` once it can, through the same rebase. Any other failure rolls back to what
/// the server last confirmed and is thrown to the caller.
actor OptimisticList {
    /// Reloads after this many conflicts in a row are given up (the error is thrown).
    static let maxConflictRetries = 20

    private(set) var wanted: [String]
    private var confirmed: [String]
    private var tail: Task<Void, any Error>?
    /// Changes asked for whose requests have not been answered yet.
    private var unanswered = 0
    private let send: @Sendable ([String]) async throws -> [String]
    private let reload: @Sendable () async throws -> [String]
    private let changed: @Sendable ([String]) async -> Void
    private let kept: @Sendable (IDDelta) async -> Void
    /// True while changes wait for the server to be reachable again.
    private var keeping = false

    /// - Parameters:
    ///   - send: sends a whole list, returns the list the server now holds.
    ///   - reload: fetches the list the server holds now (after a conflict).
    ///   - changed: called with the list to show after every change and rollback.
    ///   - kept: called with the changes waiting for the server whenever they change (none once sent).
    init(
        _ initial: [String], send: @escaping @Sendable ([String]) async throws -> [String],
        reload: @escaping @Sendable () async throws -> [String],
        changed: @escaping @Sendable ([String]) async -> Void,
        kept: @escaping @Sendable (IDDelta) async -> Void
    ) {
        wanted = initial
        confirmed = initial
        self.send = send
        self.reload = reload
        self.changed = changed
        self.kept = kept
    }

    /// This client's changes the server does not have yet.
    var pending: IDDelta { IDDelta(from: confirmed, to: wanted) }

    /// How many ids the changes kept for the server change (0 when none are kept).
    var waiting: Int { keeping ? pending.count : 0 }

    /// True while a change is on its way: a list the server sends meanwhile (the echo of one of
    /// those changes, in a live update) must not replace the presses not sent yet.
    var isSending: Bool { unanswered > 0 }

    /// Takes what the server sent (after a load) as confirmed: the list shown too, with the
    /// changes kept for the server on top.
    func reset(_ list: [String]) {
        wanted = keeping ? IDList.rebase(wanted, from: confirmed, onto: list) : list
        confirmed = list
    }

    /// Takes back changes an earlier run kept (``KeptChanges``): shown at once, sent by ``sendKept()``.
    func restore(_ delta: IDDelta) async {
        guard !delta.isEmpty else { return }
        wanted = delta.applied(to: wanted)
        confirmed = delta.reverted(from: wanted)
        keeping = true
        await changed(wanted)
    }

    /// Adds `id` when absent, removes it when present; returns once the server has it, or throws
    /// ``ChangeKept`` when it waits for the server with the changes before it.
    func toggle(_ id: String) async throws {
        if let index = wanted.firstIndex(of: id) { wanted.remove(at: index) } else { wanted.append(id) }
        // While the server cannot be reached, kept with the others (sent with them once it answers).
        if keeping, unanswered == 0 { try await keep(APIError.offline("")) }
        try await commit()
    }

    /// Sends the changes kept while the server could not be reached (nothing when none are).
    func sendKept() async throws {
        guard keeping else { return }
        try await commit()
    }

    private func commit() async throws {
        unanswered += 1
        defer { unanswered -= 1 }
        await changed(wanted)
        let previous = tail
        let task = Task {
            _ = await previous?.result
            try await self.sendIfNeeded()
        }
        tail = task
        try await task.value
    }

    private func sendIfNeeded() async throws {
        var conflicts = 0
        while wanted != confirmed {
            let target = wanted
            do {
                confirmed = try await send(target)
                if wanted == target { wanted = confirmed }
                break
            } catch APIError.versionConflict where conflicts < Self.maxConflictRetries {
                conflicts += 1
                // A random pause, growing with each conflict, so two clients in step fall out of it.
                try? await Task.sleep(for: .milliseconds(Int.random(in: 0...min(200, 2 << min(conflicts, 7)))))
                do {
                    let fresh = try await reload()
                    wanted = IDList.rebase(wanted, from: confirmed, onto: fresh)
                    confirmed = fresh
                } catch let error as APIError where error.isUnreachable {
                    try await keep(error)
                } catch {
                    try await rollBack(error)
                }
            } catch let error as APIError where error.isUnreachable {
                try await keep(error)
            } catch  where keeping {
                try await sendOneByOne()
            } catch {
                try await rollBack(error)
            }
        }
        if keeping {
            keeping = false
            await kept(.none)
        }
        await changed(wanted)
    }

    /// Keeps the changes the server does not have until it can be reached.
    private func keep(_ reason: APIError) async throws -> Never {
        keeping = true
        await changed(wanted)
        await kept(pending)
        throw ChangeKept(reason: reason)
    }

    /// The server refused the changes kept for it as a whole (an id it does not know, an NFT
    /// bought meanwhile, a list too large): each is sent alone, so those it takes are kept and
    /// those it refuses are named (``KeptChangesRefused``), instead of all of them dropped.
    private func sendOneByOne() async throws {
        let delta = pending
        let changes =
            delta.added.map { IDDelta(added: [$0], removed: []) }
            + delta.removed.map { IDDelta(added: [], removed: [$0]) }
        var refused: [String] = []
        for (index, change) in changes.enumerated() {
            do {
                confirmed = try await sendAlone(change)
            } catch let error as APIError where error.isUnreachable {  // the rest waits again
                wanted = changes[index...].reduce(confirmed) { $1.applied(to: $0) }
                try await keep(error)
            } catch {
                refused += change.added + change.removed
            }
        }
        wanted = confirmed
        keeping = false
        await kept(.none)
        await changed(wanted)
        if !refused.isEmpty { throw KeptChangesRefused(ids: refused) }
    }

    /// Sends `change` on top of what the server holds, reloading it once after a conflict.
    private func sendAlone(_ change: IDDelta) async throws -> [String] {
        do {
            return try await send(change.applied(to: confirmed))
        } catch APIError.versionConflict {
            confirmed = try await reload()
            return try await send(change.applied(to: confirmed))
        }
    }

    private func rollBack(_ error: any Error) async throws -> Never {
        wanted = confirmed
        if keeping {  // the server refused them: nothing is kept any more
            keeping = false
            await kept(.none)
        }
        await changed(wanted)
        throw error
    }
}

/// Changes kept for the server that it refused when they were sent, each alone (the others it
/// took): the ids they were of.
public struct KeptChangesRefused: Error, Sendable, Equatable {
    public let ids: [String]
}

/// A change the server could not be reached for: shown, kept on disk, and sent once it can be.
public struct ChangeKept: Error, Sendable {
    /// Why the server could not be reached.
    public let reason: APIError
}

extension APIError {
    /// True when the server could not be reached (no answer at all): changes wait for it.
    public var isUnreachable: Bool {
        switch self {
        case .offline, .timeout: true
        default: false
        }
    }
}
