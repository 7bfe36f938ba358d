import Foundation

/// A file name made from any text: its FNV-1a hash in hexadecimal.
enum FileName {
    static func hashed(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}

/// What the app last saw from one server for one account: the collections, the NFTs it
/// fetched, the profile and the cart, the rating's first page in each order, the users it
/// named (authors) and their places in the rating, and the paid orders. Kept in the cache
/// folder so the next start draws it at once, marked as not yet refreshed, replaces it as the
/// server answers, and reads every tab from it offline.
public struct LastSeen: Codable, Sendable, Equatable {
    /// This layout's number: a file written by another one is not read.
    public static let layout = 2
    /// The most NFTs kept (those seen last come first).
    public static let maxNFTs = 2_000

    public var layout: Int
    /// The app version that wrote it: a file from another version is not read.
    public var appVersion: String
    public var collections: [NFTCollection]
    public var nfts: [NFT]
    public var profile: Profile?
    public var order: Order?
    /// The rating's first page in each order (``UserService/Sorting``'s raw value).
    public var firstPages: [String: [User]]
    /// Users read one by one (the authors the screens named).
    public var people: [User]
    /// The account's latest paid orders (``PaidOrderService``), when they were read.
    public var paidOrders: [PaidOrder]?
    /// The places in the rating of the users kept (``UserService/ranking()``).
    public var ratingPlaces: [String: Int]?
    /// How many users there were, when known.
    public var userCount: Int?

    public init(
        collections: [NFTCollection], nfts: [NFT], profile: Profile?, order: Order?,
        firstPages: [String: [User]] = [:], people: [User] = [], paidOrders: [PaidOrder]? = nil,
        ratingPlaces: [String: Int]? = nil, userCount: Int? = nil
    ) {
        layout = Self.layout
        appVersion = FakeNFTVersion.current
        self.collections = collections
        self.nfts = Array(nfts.prefix(Self.maxNFTs))
        self.profile = profile
        self.order = order
        self.firstPages = firstPages
        self.people = Array(people.prefix(UserService.maxPeople))
        self.paidOrders = paidOrders.map { Array($0.prefix(PaidOrderService.shownOrders)) }
        self.ratingPlaces = ratingPlaces
        self.userCount = userCount
    }

    /// Whether there is anything to show.
    public var isEmpty: Bool {
        collections.isEmpty && nfts.isEmpty && profile == nil && order == nil && firstPages.isEmpty && people.isEmpty
            && paidOrders == nil
    }
}

/// The files of ``LastSeen``, one per server and account, under `$XDG_CACHE_HOME/fakenft/last-seen`:
/// written by rename, at most ``maxBytes`` each; a file that is damaged, too big or from another
/// layout or version is removed and reads as nothing (the next quit writes it again).
public struct LastSeenStore: Sendable {
    /// The most bytes one file may hold.
    public static let maxBytes = 4 * 1024 * 1024

    public let file: URL

    /// The file for `server` (a URL, or the embedded server's data folder) and `account` (a
    /// user id; nil: the shared profile) in `directory`.
    public init(directory: URL, server: String, account: String?) {
        file = directory.appendingPathComponent(FileName.hashed("\(server)\n\(account ?? "")") + ".json")
    }

    /// `$XDG_CACHE_HOME/fakenft/last-seen` (default `~/.cache/fakenft/last-seen`).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        ImageDiskCache.defaultDirectory(environment: environment).deletingLastPathComponent()
            .appendingPathComponent("last-seen")
    }

    /// What was saved, or nil (nothing saved, or a file not fit to read, which is removed).
    public func load() -> LastSeen? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        guard let data = RegularFile.read(file, maxBytes: Self.maxBytes),
            let saved = try? JSONDecoder().decode(LastSeen.self, from: data),
            saved.layout == LastSeen.layout, saved.appVersion == FakeNFTVersion.current
        else {
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        return saved
    }

    /// Keeps `seen`, dropping NFTs (the oldest seen first) until it fits ``maxBytes``.
    public func save(_ seen: LastSeen) throws {
        var kept = seen
        var data = try JSONEncoder().encode(kept)
        while data.count > Self.maxBytes, !kept.nfts.isEmpty {
            kept.nfts.removeLast(max(1, kept.nfts.count / 2))
            data = try JSONEncoder().encode(kept)
        }
        guard data.count <= Self.maxBytes else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        let directory = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        try data.write(to: temporary)
        guard rename(temporary.path, file.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
