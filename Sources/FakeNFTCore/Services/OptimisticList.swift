/// A list of ids changed optimistically on the client and synchronised with the server one
/// request at a time (likes, the cart).
///
/// A change shows at once; requests are chained so that fast toggles are never lost or sent
/// out of order: each request sends the latest wanted list. When the server says the list
/// changed elsewhere (``APIError/versionConflict``), the list is reloaded and only this
/// client's own changes (ids added, ids removed) are applied again to it before retrying, so
/// two clients changing different ids never undo each other. Any other failure rolls back to
/// what the server last confirmed and is thrown to the caller.
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

    /// - Parameters:
    ///   - send: sends a whole list, returns the list the server now holds.
    ///   - reload: fetches the list the server holds now (after a conflict).
    ///   - changed: called with the list to show after every change and rollback.
    init(
        _ initial: [String], send: @escaping @Sendable ([String]) async throws -> [String],
        reload: @escaping @Sendable () async throws -> [String],
        changed: @escaping @Sendable ([String]) async -> Void
    ) {
        wanted = initial
        confirmed = initial
        self.send = send
        self.reload = reload
        self.changed = changed
    }

    /// True while a change is on its way: a list the server sends meanwhile (the echo of one of
    /// those changes, in a live update) must not replace the presses not sent yet.
    var isSending: Bool { unanswered > 0 }

    /// Replaces both lists with what the server sent (after a load).
    func reset(_ list: [String]) {
        wanted = list
        confirmed = list
    }

    /// Adds `id` when absent, removes it when present; returns once the server has it.
    func toggle(_ id: String) async throws {
        if let index = wanted.firstIndex(of: id) { wanted.remove(at: index) } else { wanted.append(id) }
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
                } catch {
                    try await rollBack(error)
                }
            } catch {
                try await rollBack(error)
            }
        }
        await changed(wanted)
    }

    private func rollBack(_ error: any Error) async throws -> Never {
        wanted = confirmed
        await changed(wanted)
        throw error
    }
}
