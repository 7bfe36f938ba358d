import Foundation

/// The usage events the app recorded and its server does not have yet: sent in batches of at
/// most ``UsageBatch/maxEvents``, at most ``maxPending`` held (past it the oldest are dropped).
/// A batch the server cannot take now (offline, busy, failing) waits for the next send; one it
/// refuses (4xx) is dropped, never sent again. What is left when the app ends is kept in a file
/// of this window's under `$XDG_STATE_HOME/fakenft/usage`, and a later window on the same server
/// takes every such file with its first send (by renaming it first, so two windows never both
/// send one; not at its start, which touches no file for it). Files are the user's alone (mode
/// 0600); one planted by someone else, damaged or too big is never sent, and an event in it that
/// is not one the app sends is dropped.
public actor UsageReporter {
    /// The most events held, in memory and in a file.
    public static let maxPending = 1_000
    private let api: APIClient
    private let folder: URL
    /// The names of this server's files start so.
    private let prefix: String
    private var pending: [UsageEvent] = []
    private var sending = false
    private var tookKept = false

    /// - Parameters:
    ///   - server: which server the events are for (its URL, or the embedded server's data folder).
    public init(api: APIClient, server: String, folder: URL = UsageReporter.defaultFolder()) {
        self.api = api
        self.folder = folder
        prefix = FileName.hashed(server) + "."
    }

    /// `$XDG_STATE_HOME/fakenft/usage` (default `~/.local/state/fakenft/usage`).
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StateFolder.url(environment: environment).appendingPathComponent("usage")
    }

    /// The events held now, oldest first.
    public var held: [UsageEvent] { pending }

    /// Takes the events earlier windows kept for this server, in front of any held (once; the
    /// first ``send()`` does it).
    public func takeKept() {
        guard !tookKept else { return }
        tookKept = true
        guard PrivateFile.isTheUsersAlone(folder.path) else { return }  // others may plant files there
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var kept: [UsageEvent] = []
        for name in names.sorted() where name.hasPrefix(prefix) && name.hasSuffix(".json") {
            let file = folder.appendingPathComponent(name), claimed = file.appendingPathExtension("taken-\(getpid())")
            guard PrivateFile.isTheUsersAlone(file.path), rename(file.path, claimed.path) == 0 else { continue }
            defer { try? FileManager.default.removeItem(at: claimed) }
            guard let data = RegularFile.read(claimed, maxBytes: Self.maxFileBytes),
                let events = try? JSONDecoder().decode(UsageBatch.self, from: data).events
            else { continue }
            kept += events.filter { $0.problem == nil }
        }
        add(kept, first: true)
    }

    /// Holds `events` (after those held, or before them when `first`), dropping the oldest past
    /// ``maxPending``.
    public func add(_ events: [UsageEvent], first: Bool = false) {
        pending = first ? events + pending : pending + events
        if pending.count > Self.maxPending { pending.removeFirst(pending.count - Self.maxPending) }
    }

    /// Sends what is held, a batch at a time, until everything is sent or the server cannot take
    /// more now. One send at a time: a call while one runs returns at once.
    public func send() async {
        guard !sending else { return }
        sending = true
        defer { sending = false }
        takeKept()
        while !pending.isEmpty {
            let batch = Array(pending.prefix(UsageBatch.maxEvents))
            pending.removeFirst(batch.count)
            do { try await api.sendUsage(UsageBatch(events: batch)) } catch {
                guard Self.isWorthAnotherTry(APIError(thrown: error)) else { continue }  // refused: dropped
                add(batch, first: true)
                return
            }
        }
    }

    /// Keeps what is held in this window's file for a later start (nothing held: no file).
    public func keep() {
        guard !pending.isEmpty, let data = try? JSONEncoder().encode(UsageBatch(events: pending)) else { return }
        let file = folder.appendingPathComponent(prefix + "\(getpid())-\(UInt64.random(in: 0...UInt64.max)).json")
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try data.write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            pending = []
        } catch {
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// A file holds at most ``maxPending`` events of the longest ids, well within this.
    static let maxFileBytes = 512 * 1024

    /// Whether a batch that failed so may be sent again later: the server could not be reached
    /// or could not take it now; not one it refused.
    static func isWorthAnotherTry(_ error: APIError) -> Bool {
        switch error {
        case .offline, .timeout, .rateLimited, .cannotStore, .cancelled: true
        case .server(let status, _): status == 429 || status >= 500
        case .unauthorized, .notFound, .versionConflict, .tooLarge, .undecodable: false
        }
    }
}
