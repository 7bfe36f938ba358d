import Foundation

/// A client's own changes to a list of ids: those it added and those it removed.
public struct IDDelta: Codable, Sendable, Equatable {
    public var added: [String]
    public var removed: [String]

    public static let none = IDDelta(added: [], removed: [])

    public init(added: [String], removed: [String]) {
        self.added = added
        self.removed = removed
    }

    /// What turned `base` into `list`.
    public init(from base: [String], to list: [String]) {
        let before = Set(base), after = Set(list)
        added = list.filter { !before.contains($0) }
        removed = base.filter { !after.contains($0) }
    }

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }
    /// How many ids it changes.
    public var count: Int { added.count + removed.count }

    /// `list` with these changes made (an id added once, wherever it already is).
    public func applied(to list: [String]) -> [String] {
        let gone = Set(removed)
        var result = list.filter { !gone.contains($0) }
        var present = Set(result)
        for id in added where present.insert(id).inserted { result.append(id) }
        return result
    }

    /// `list` as it was before these changes.
    public func reverted(from list: [String]) -> [String] {
        IDDelta(added: removed, removed: added).applied(to: list)
    }
}

/// Changes to one list (likes, the cart) made while the server could not be reached, kept in a
/// file per server, account and list under `$XDG_STATE_HOME/fakenft/kept` until the server has
/// them: a quit or a crash loses none. A file that is damaged or too big reads as nothing and
/// is removed.
public struct KeptChanges: Sendable {
    /// The most bytes a file may hold.
    public static let maxBytes = 1024 * 1024

    public let file: URL

    /// The file of `list` for `server` (a URL, or the embedded server's data folder) and
    /// `account` (a user id; nil: the shared profile) in `directory`.
    public init(directory: URL, server: String, account: String?, list: String) {
        file = directory.appendingPathComponent(FileName.hashed("\(server)\n\(account ?? "")") + "-\(list).json")
    }

    /// `$XDG_STATE_HOME/fakenft/kept` (default `~/.local/state/fakenft/kept`).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StateFolder.url(environment: environment).appendingPathComponent("kept")
    }

    /// The changes kept, or none.
    public func load() -> IDDelta {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return .none }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: Self.maxBytes + 1), data.count <= Self.maxBytes,
            let kept = try? JSONDecoder().decode(IDDelta.self, from: data)
        else {
            try? FileManager.default.removeItem(at: file)
            return .none
        }
        return kept
    }

    /// Keeps `delta` (written whole by rename); nothing kept removes the file.
    public func save(_ delta: IDDelta) throws {
        guard !delta.isEmpty else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try JSONEncoder().encode(delta).write(to: file, options: .atomic)
    }
}
