import Foundation

/// Sort orders the user chose, per screen.
public struct SortPreferences: Codable, Sendable, Hashable {
    public enum Catalog: String, Codable, Sendable, CaseIterable { case name, nftCount }
    public enum Items: String, Codable, Sendable, CaseIterable { case price, rating, name }
    public enum Statistics: String, Codable, Sendable, CaseIterable { case name, rating }

    public var catalog: Catalog = .nftCount
    public var cart: Items = .name
    public var myNFTs: Items = .rating
    public var statistics: Statistics = .rating

    public init() {}

    public init(from decoder: any Decoder) throws {
        // Unknown or missing values fall back to the defaults: an old or hand-edited file never breaks start-up.
        let c = try decoder.container(keyedBy: CodingKeys.self)
        catalog = (try? c.decode(Catalog.self, forKey: .catalog)) ?? .nftCount
        cart = (try? c.decode(Items.self, forKey: .cart)) ?? .name
        myNFTs = (try? c.decode(Items.self, forKey: .myNFTs)) ?? .rating
        statistics = (try? c.decode(Statistics.self, forKey: .statistics)) ?? .rating
    }
}

/// Sort preferences persisted as JSON in `$XDG_CONFIG_HOME/fakenft/preferences.json`, written atomically.
public actor PreferencesStore {
    public let fileURL: URL
    private var preferences: SortPreferences

    public init(fileURL: URL) {
        self.fileURL = fileURL
        preferences =
            RegularFile.read(fileURL, maxBytes: 64 * 1024).flatMap {
                try? JSONDecoder().decode(SortPreferences.self, from: $0)
            }
            ?? SortPreferences()
    }

    /// `$XDG_CONFIG_HOME/fakenft/preferences.json` (default `~/.config/fakenft/`).
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
        return base.appendingPathComponent("fakenft/preferences.json")
    }

    public var current: SortPreferences { preferences }

    /// Changes the preferences and saves them (temp file, fsync, rename); throws
    /// ``PreferencesNotSaved`` when the file cannot be written (the change is then not kept).
    public func update(_ change: (inout SortPreferences) -> Void) throws(PreferencesNotSaved) {
        var updated = preferences
        change(&updated)
        do {
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(updated).write(to: fileURL, options: .atomic)
        } catch {
            throw PreferencesNotSaved(path: fileURL.path, reason: String(describing: error))
        }
        preferences = updated
    }
}

/// The preferences file could not be written: where, and the system's reason (for the log).
public struct PreferencesNotSaved: Error, Sendable {
    public let path: String
    public let reason: String
}
