import FakeNFTCore
import Foundation
import Testing

/// What the app last saw, kept for the next start: read back as written, one file per server and
/// account, bounded, and a damaged file or one from another version thrown away without a crash.
@Suite struct LastSeenTests {
    static func store(account: String? = nil) -> LastSeenStore {
        LastSeenStore(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("last-seen-\(UUID().uuidString)"),
            server: "http://a.example", account: account)
    }

    static func nft(_ id: Int, description: String = "An NFT") -> NFT {
        NFT(
            id: "\(id)", name: "NFT \(id)", images: ["http://a.example/\(id).png"], rating: 3,
            description: description, price: 1.5, author: "Anna", createdAt: "2026-01-01")
    }

    static let seen = LastSeen(
        collections: [
            NFTCollection(
                id: "1", name: "Beige", cover: "http://a.example/c.png", nfts: ["1", "2"], description: "Old",
                author: "Anna", createdAt: "2026-01-01")
        ],
        nfts: [nft(1), nft(2)],
        profile: Profile(
            id: "1", name: "Anna", avatar: "", description: "", website: "", nfts: ["2"], likes: ["1"]),
        order: Order(nfts: ["1"]))

    @Test func whatIsSavedIsReadBack() throws {
        let store = Self.store()
        #expect(store.load() == nil, "nothing saved yet")
        try store.save(Self.seen)
        #expect(store.load() == Self.seen)
        let other = LastSeenStore(
            directory: store.file.deletingLastPathComponent(), server: "http://a.example", account: "u-7")
        #expect(other.file != store.file, "each account has its own")
        #expect(other.load() == nil)
    }

    @Test(arguments: ["truncated", "random bytes", "another layout", "another version", "too big"])
    func aFileNotFitToReadIsThrownAway(_ damage: String) throws {
        let store = Self.store()
        try store.save(Self.seen)
        let data = try Data(contentsOf: store.file)
        let replaced: Data =
            switch damage {
            case "truncated": data.prefix(data.count / 2)
            case "random bytes": Data((0..<500).map { _ in UInt8.random(in: 0...255) })
            case "another layout":
                Data(
                    String(decoding: data, as: UTF8.self).replacing(
                        #""layout":\#(LastSeen.layout)"#, with: #""layout":99"#
                    ).utf8)
            case "another version":
                Data(String(decoding: data, as: UTF8.self).replacing(FakeNFTVersion.current, with: "0.0.1").utf8)
            default: Data(repeating: 0x20, count: LastSeenStore.maxBytes + 1)
            }
        #expect(replaced != data)
        try replaced.write(to: store.file)
        #expect(store.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: store.file.path), "removed, to be written again")
        try store.save(Self.seen)
        #expect(store.load() == Self.seen, "written again on the next quit")
    }

    @Test func aHugeCopyKeepsWhatFits() throws {
        let store = Self.store()
        let long = String(repeating: "x", count: 10_000)
        let huge = LastSeen(
            collections: Self.seen.collections, nfts: (1...1_500).map { Self.nft($0, description: long) },
            profile: Self.seen.profile, order: Self.seen.order)
        try store.save(huge)
        let read = try #require(store.load())
        #expect(try Data(contentsOf: store.file).count <= LastSeenStore.maxBytes)
        #expect(read.collections == huge.collections && read.profile == huge.profile && read.order == huge.order)
        #expect(!read.nfts.isEmpty && read.nfts.count < huge.nfts.count)
    }
}
