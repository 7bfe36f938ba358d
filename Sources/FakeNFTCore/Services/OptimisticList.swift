/// A list of ids changed optimistically on the client and synchronised with the server one
/// request at a time (likes, the cart).
///
/// A change shows at once; requests are chained so that fast toggles are never lost or sent
/// out of order: each request sends the latest wanted list. A failure rolls back to what the
/// server last confirmed and is thrown to the caller.
actor OptimisticList {
    private(set) var wanted: [String]
    private var confirmed: [String]
    private var tail: Task<Void, any Error>?
    private let send: @Sendable ([String]) async throws -> [String]
    private let changed: @Sendable ([String]) async -> Void

    /// - Parameters:
    ///   - send: sends a whole list, returns the list the server now holds.
    ///   - changed: called with the list to show after every change and rollback.
    init(_ initial: [String], send: @escaping @Sendable ([String]) async throws -> [String],
         changed: @escaping @Sendable ([String]) async -> Void) {
        wanted = initial
        confirmed = initial
        self.send = send
        self.changed = changed
    }

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

    /// Replaces the wanted list; returns once the server has it.
    func set(_ list: [String]) async throws {
        wanted = list
        try await commit()
    }

    private func commit() async throws {
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
        guard wanted != confirmed else { return }
        let target = wanted
        do {
            confirmed = try await send(target)
            if wanted == target { wanted = confirmed }
        } catch {
            wanted = confirmed
            await changed(wanted)
            throw error
        }
        await changed(wanted)
    }
}
