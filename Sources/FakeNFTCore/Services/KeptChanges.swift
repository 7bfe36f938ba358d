import Foundation

/// The app's actions on the likes and the cart made while the server could not be reached (the
/// outbox's pending actions, ``OutboxAction``), kept in a file per server, account and window
/// under `$XDG_STATE_HOME/fakenft/kept` until the server has them: a quit or a crash loses none,
/// and two windows keeping changes at once never overwrite each other's. A window is its process
/// id and the time that process started (a process id used again is another window). A window
/// takes over the files of windows that ended before sending theirs, only the user's own (mode
/// 0600, in a folder only the user can change): a file planted by someone else is never sent as
/// the user's. A file that is damaged or too big reads as nothing and is removed.
public struct KeptChanges: Sendable {
    /// The most bytes a file may hold.
    public static let maxBytes = 1024 * 1024

    /// This window's file: `<server and account>-outbox.<process id>-<its start time>.json`.
    public let file: URL
    private let directory: URL
    /// The names of every window's files start so.
    private let prefix: String

    /// The file for `server` (a URL, or the embedded server's data folder) and `account` (a user
    /// id; nil: the shared profile) in `directory`, of the window `process`.
    public init(directory: URL, server: String, account: String?, process: Int32 = getpid()) {
        self.directory = directory
        prefix = FileName.hashed("\(server)\n\(account ?? "")") + "-outbox."
        file = directory.appendingPathComponent(prefix + "\(process)-\(Self.startTime(of: process) ?? 0).json")
    }

    /// `$XDG_STATE_HOME/fakenft/kept` (default `~/.local/state/fakenft/kept`).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StateFolder.url(environment: environment).appendingPathComponent("kept")
    }

    /// The actions this window keeps, with those of windows that ended (their process is gone)
    /// before sending theirs after them: taken over, written into this window's file, theirs removed.
    public func load() -> [OutboxAction] {
        var kept = Self.read(file)
        guard PrivateFile.isTheUsersAlone(directory.path) else { return kept }  // others may plant files there
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let ended = names.compactMap { name -> URL? in
            guard name.hasPrefix(prefix), name.hasSuffix(".json"),
                !Self.isRunning(String(name.dropFirst(prefix.count).dropLast(5)))
            else { return nil }
            let other = directory.appendingPathComponent(name)
            return other != file && PrivateFile.isTheUsersAlone(other.path) ? other : nil
        }
        guard !ended.isEmpty else { return kept }
        for other in ended { kept += Self.read(other) }
        do { try save(kept) } catch { return kept }  // theirs stay until this one's is written
        for other in ended { try? FileManager.default.removeItem(at: other) }
        return kept
    }

    /// Keeps `actions` (written whole by rename); nothing kept removes the file.
    public func save(_ actions: [OutboxAction]) throws {
        guard !actions.isEmpty else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try JSONEncoder().encode(actions).write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }

    /// The actions in `file`, or none (a damaged or oversized file is removed).
    private static func read(_ file: URL) -> [OutboxAction] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        guard let data = RegularFile.read(file, maxBytes: maxBytes),
            let kept = try? JSONDecoder().decode([OutboxAction].self, from: data)
        else {
            try? FileManager.default.removeItem(at: file)
            return []
        }
        return kept.map { action in
            var kept = action
            kept.state = .kept
            return kept
        }
    }

    /// Whether `window` (`<process id>-<start time>`) still runs: its process is there and
    /// started then (another user's counts too).
    private static func isRunning(_ window: String) -> Bool {
        let parts = window.split(separator: "-")
        guard parts.count == 2, let id = Int32(parts[0]), id > 0, let started = UInt64(parts[1]) else { return false }
        return startTime(of: id) == started
    }

    /// When process `id` started (clock ticks after boot, /proc's `starttime`); nil when it is gone.
    static func startTime(of id: Int32) -> UInt64? {
        guard id > 0, let data = RegularFile.read(URL(fileURLWithPath: "/proc/\(id)/stat"), maxBytes: 4096),
            let stat = String(data: data, encoding: .utf8), let end = stat.range(of: ") ", options: .backwards)
        else { return nil }
        let fields = stat[end.upperBound...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil  // field 22 of the line; 3 is the first here
    }
}
