import FakeNFTServer
import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// Likes and cart changes made while the server cannot be reached: shown, kept on disk, and sent
/// by a later run through the If-Match rebase, so nothing is lost and nothing another client
/// changed meanwhile is overwritten.
@Suite struct KeptChangesTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID().uuidString)")
    }

    @Test func aDeltaIsWhatTurnedOneListIntoAnother() {
        let delta = IDDelta(from: ["a", "b", "c"], to: ["b", "c", "d"])
        #expect(delta == IDDelta(added: ["d"], removed: ["a"]) && delta.count == 2 && !delta.isEmpty)
        #expect(delta.applied(to: ["a", "b", "c"]) == ["b", "c", "d"])
        #expect(delta.applied(to: ["b", "d", "e"]) == ["b", "d", "e"], "an id already there is not added twice")
        #expect(delta.reverted(from: ["b", "c", "d"]) == ["b", "c", "a"])
        #expect(IDDelta(from: ["a"], to: ["a"]).isEmpty)
        #expect(
            delta.merged(with: IDDelta(added: ["d", "e"], removed: ["b"]))
                == IDDelta(added: ["d", "e"], removed: ["a", "b"]))
    }

    @Test func theFileKeepsADeltaAndForgetsOneThatIsEmptyOrDamaged() throws {
        let kept = KeptChanges(directory: Self.folder(), server: "http://s", account: "7", list: "likes")
        #expect(kept.load() == .none)
        let delta = IDDelta(added: ["1", "2"], removed: ["3"])
        try kept.save(delta)
        #expect(kept.load() == delta)
        #expect(
            KeptChanges(
                directory: kept.file.deletingLastPathComponent(), server: "http://s", account: nil, list: "likes"
            )
            .load() == .none, "another account's file is another file")
        try kept.save(.none)
        #expect(!FileManager.default.fileExists(atPath: kept.file.path))
        try kept.save(delta)
        try Data("{\"added\": [1,".utf8).write(to: kept.file)
        #expect(kept.load() == .none && !FileManager.default.fileExists(atPath: kept.file.path))
        try Data(count: KeptChanges.maxBytes + 1).write(to: kept.file)
        #expect(kept.load() == .none)
    }

    /// Two windows keep their own files; a window takes over those of windows that ended
    /// (their process is gone), never those of one still running, nor another list's.
    @Test func aWindowTakesOverTheChangesOfWindowsThatEnded() throws {
        let folder = Self.folder()
        func kept(_ list: String, _ process: Int32 = getpid()) -> KeptChanges {
            KeptChanges(directory: folder, server: "s", account: "7", list: list, process: process)
        }
        let gone: Int32 = 2_000_000_000, running: Int32 = 1  // beyond pid_max; init
        try kept("likes", gone).save(IDDelta(added: ["1"], removed: ["9"]))
        try kept("likes", running).save(IDDelta(added: ["2"], removed: []))
        try kept("cart", gone).save(IDDelta(added: ["5"], removed: []))
        try kept("likes").save(IDDelta(added: ["4"], removed: []))
        let expected = IDDelta(added: ["4", "1"], removed: ["9"])
        #expect(kept("likes").load() == expected)
        #expect(!FileManager.default.fileExists(atPath: kept("likes", gone).file.path), "taken over")
        #expect(kept("likes", running).load() == IDDelta(added: ["2"], removed: []), "a running window keeps its own")
        #expect(FileManager.default.fileExists(atPath: kept("cart", gone).file.path), "another list's stays")
        #expect(kept("likes").load() == expected, "written into this window's file")
    }

    /// Only the user's own private files of ended windows are taken over: a file others may read
    /// (planted, or another user's) stays where it is, unsent; in a folder others may write,
    /// nothing of another window's is taken; a window whose process id now belongs to a process
    /// started later has ended.
    @Test func onlyTheUsersOwnPrivateFilesOfEndedWindowsAreTakenOver() throws {
        let folder = Self.folder()
        func kept(_ list: String, _ process: Int32 = getpid()) -> KeptChanges {
            KeptChanges(directory: folder, server: "s", account: "7", list: list, process: process)
        }
        func plant(_ ids: [String], at file: URL, mode: mode_t) throws {
            try JSONEncoder().encode(IDDelta(added: ids, removed: [])).write(to: file)
            #expect(chmod(file.path, mode) == 0)
        }
        try kept("likes").save(IDDelta(added: ["4"], removed: []))
        let started = try #require(KeptChanges.startTime(of: getpid()))
        let reused = folder.appendingPathComponent(
            kept("likes").file.lastPathComponent.replacingOccurrences(of: "-\(started).json", with: "-1.json"))
        try plant(["7"], at: reused, mode: 0o600)
        let planted = kept("likes", 2_000_000_001).file
        try plant(["666"], at: planted, mode: 0o644)
        #expect(kept("likes").load() == IDDelta(added: ["4", "7"], removed: []), "the reused process id's taken over")
        #expect(FileManager.default.fileExists(atPath: planted.path), "a file others may read is not taken")
        #expect(chmod(folder.path, 0o777) == 0)
        try plant(["8"], at: kept("likes", 2_000_000_002).file, mode: 0o600)
        #expect(kept("likes").load() == IDDelta(added: ["4", "7"], removed: []), "a folder others may write")
    }

    /// A payment pays for the cart shown: cart changes kept offline are sent before it.
    @Test func aPaymentSendsTheKeptCartChangesFirst() async throws {
        let folder = Self.folder()
        let kept = KeptChanges(directory: folder, server: "s", account: nil, list: "cart")
        try await TestServer.with { server async throws in
            let api = server.client()
            let before = try await api.order().nfts
            try kept.save(IDDelta(added: ["1"], removed: []))  // an earlier run's, made offline
            let order = OrderService(api: api, profile: ProfileService(api: api), kept: kept)
            await order.restoreKept()
            let result = try await order.pay(currencyID: "1")
            #expect(result.success)
            #expect(Set(try await api.profile().nfts).isSuperset(of: before + ["1"]), "NFT 1 was paid for too")
            #expect(try await api.order().nfts.isEmpty && kept.load() == .none)
        }
    }

    @Test func changesMadeOfflineAreKeptThenSentOnTopOfWhatOthersChanged() async throws {
        let folder = Self.folder()
        func kept(_ list: String) -> KeptChanges {
            KeptChanges(directory: folder, server: "s", account: nil, list: list)
        }
        try await TestServer.with { server async throws in
            let other = server.client()
            let seen = try await other.profile(), seenOrder = try await other.order()
            let liked = try #require(seen.likes.first), newLike = "1", inCart = "2"
            #expect(!seen.likes.contains(newLike) && !seenOrder.nfts.contains(inCart))

            // Offline from the start (nobody listens on port 1): shown at once, kept, counted.
            let offline = APIClient(APIConfiguration(baseURL: URL(string: "http://127.0.0.1:1")!))
            let profile = ProfileService(api: offline, kept: kept("likes"))
            let order = OrderService(api: offline, profile: profile, kept: kept("cart"))
            await profile.remember(seen)
            await order.remember(seenOrder)
            await #expect(throws: ChangeKept.self) { try await profile.toggleLike(newLike) }
            await #expect(throws: ChangeKept.self) { try await profile.toggleLike(liked) }
            await #expect(throws: ChangeKept.self) { try await order.toggle(inCart) }
            let (likesWaiting, cartWaiting) = (await profile.waiting, await order.waiting)
            #expect(likesWaiting == 2 && cartWaiting == 1)
            #expect(profile.current?.likes.contains(newLike) == true && profile.current?.likes.contains(liked) == false)
            #expect(order.current?.nfts.contains(inCart) == true)
            #expect(kept("likes").load() == IDDelta(added: [newLike], removed: [liked]))
            #expect(kept("cart").load() == IDDelta(added: [inCart], removed: []))

            // Meanwhile another client likes NFT 3 and empties nothing of ours.
            let fresh = try await other.versionedProfile()
            _ = try await other.updateLikes(fresh.value.likes + ["3"], ifVersion: fresh.version)

            // The next run has only the files: it shows them on what it last saw, then sends them.
            let online = server.client()
            let nextProfile = ProfileService(api: online, kept: kept("likes"))
            let nextOrder = OrderService(api: online, profile: nextProfile, kept: kept("cart"))
            await nextProfile.remember(seen)
            await nextProfile.restoreKept()
            await nextOrder.restoreKept()
            let (likesRestored, cartRestored) = (await nextProfile.waiting, await nextOrder.waiting)
            #expect(likesRestored == 2 && cartRestored == 1)
            #expect(nextProfile.current?.likes.contains(newLike) == true)
            // Loaded, before they are sent: the server's profile, the kept changes still shown on it.
            try await nextProfile.load()
            try await nextOrder.load()
            let loadedLikes = try #require(nextProfile.current?.likes)
            #expect(loadedLikes.contains(newLike) && loadedLikes.contains("3") && !loadedLikes.contains(liked))
            #expect(nextOrder.current?.nfts.contains(inCart) == true)
            try await nextProfile.sendKept()
            try await nextOrder.sendKept()
            let now = try await other.profile()
            #expect(Set(now.likes) == Set(seen.likes).union([newLike, "3"]).subtracting([liked]))
            #expect(Set(try await other.order().nfts) == Set(seenOrder.nfts + [inCart]))
            let (likesLeft, cartLeft) = (await nextProfile.waiting, await nextOrder.waiting)
            #expect(likesLeft == 0 && cartLeft == 0)
            #expect(!FileManager.default.fileExists(atPath: kept("likes").file.path))
            #expect(!FileManager.default.fileExists(atPath: kept("cart").file.path))
        }
    }

    /// One kept change the server refuses (an id it does not know) is named; the others it takes
    /// are sent, not dropped with it.
    @Test func aChangeTheServerRefusesIsNamedAndTheOthersAreSent() async throws {
        try await TestServer.with { server async throws in
            let folder = Self.folder()
            func kept(_ list: String) -> KeptChanges {
                KeptChanges(directory: folder, server: "s", account: nil, list: list)
            }
            let api = server.client()
            let (order, owned) = (try await api.order(), try await api.profile().nfts)
            let free = try #require(
                try await api.nfts(page: 0, size: 100).map(\.id).first {
                    !order.nfts.contains($0) && !owned.contains($0)
                })
            try kept("cart").save(IDDelta(added: ["999999", free], removed: [order.nfts[0]]))
            let profile = ProfileService(api: api, kept: kept("likes"))
            let service = OrderService(api: api, profile: profile, kept: kept("cart"))
            await service.restoreKept()
            try await service.load()
            await #expect(throws: KeptChangesRefused(ids: ["999999"])) { try await service.sendKept() }
            let now = try await api.order().nfts
            #expect(now.contains(free) && !now.contains(order.nfts[0]) && !now.contains("999999"), "\(now)")
            #expect(await service.waiting == 0)
            #expect(!FileManager.default.fileExists(atPath: kept("cart").file.path))
        }
    }
}
