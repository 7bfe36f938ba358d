import Foundation

/// Picture files kept between runs, under `$XDG_CACHE_HOME/fakenft/images`: written atomically,
/// bounded in size (the least recently used go first), a broken one thrown away.
public struct ImageDiskCache: Sendable {
    public let directory: URL
    /// The most bytes kept.
    public let limit: Int

    public init(directory: URL, limit: Int = 64 * 1024 * 1024) {
        self.directory = directory
        self.limit = limit
    }

    /// `$XDG_CACHE_HOME/fakenft/images` (default `~/.cache/fakenft/images`).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".cache")
        return base.appendingPathComponent("fakenft/images")
    }

    /// The bytes kept for `link`, marked as just used.
    func read(_ link: String) -> Data? {
        let file = self.file(for: link)
        guard let data = try? Data(contentsOf: file) else { return nil }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        return data
    }

    /// Keeps `data` for `link` (a temporary file renamed into place), then trims to ``limit``.
    func write(_ data: Data, for link: String) {
        let manager = FileManager.default
        try? manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = self.file(for: link)
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        guard (try? data.write(to: temporary)) != nil else { return }
        if rename(temporary.path, file.path) != 0 { try? manager.removeItem(at: temporary) }
        trim()
    }

    /// Forgets `link` (its file could not be decoded).
    func remove(_ link: String) { try? FileManager.default.removeItem(at: file(for: link)) }

    /// Removes the least recently used files until the folder holds at most ``limit`` bytes.
    func trim() {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)
        else { return }
        let entries = files.filter { $0.pathExtension == "img" }.compactMap { file -> (URL, Int, Date)? in
            guard let values = try? file.resourceValues(forKeys: Set(keys)) else { return nil }
            return (file, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
        }
        var total = entries.reduce(0) { $0 + $1.1 }
        guard total > limit else { return }
        for (file, size, _) in entries.sorted(by: { $0.2 < $1.2 }) where total > limit {
            try? FileManager.default.removeItem(at: file)
            total -= size
        }
    }

    /// The file for `link`: a hash of it, so nothing in a link reaches a file name.
    func file(for link: String) -> URL { directory.appendingPathComponent(FileName.hashed(link) + ".img") }
}
