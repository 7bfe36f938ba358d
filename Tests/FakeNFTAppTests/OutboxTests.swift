import FakeNFTCore
import FakeNFTModels
import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTApp

/// The outbox of likes and cart actions against the real server over HTTP: shown at once, sent,
/// kept while the server cannot be reached, rebased on what others change, taken back by `u` a
/// whole action at a time; what the server holds is read back after each step.
@MainActor @Suite struct OutboxTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
    }

    static func nft(_ id: String) -> NFT {
        NFT(id: id, name: "N\(id)", images: [], rating: 1, description: "", price: 1, author: "", createdAt: "")
    }

    /// The services of one window on `api`, keeping actions in `kept`.
    static func services(_ api: APIClient, kept: KeptChanges? = nil) -> Services {
        let preferences = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID().uuidString)")
        return Services(api: api, preferences: PreferencesStore(fileURL: preferences), kept: kept)
    }

    /// A window's state on `api`, started (its lists loaded when the server answers).
    static func started(_ api: APIClient, kept: KeptChanges? = nil) async -> (AppState, Effects) {
        await started(services(api, kept: kept))
    }

    /// A window's state on `services`, started.
    static func started(_ services: Services) async -> (AppState, Effects) {
        let effects = Effects.toastsOnly()
        let state = AppState(services: services, effects: effects, readOnly: false)
        await state.start()
        return (state, effects)
    }

    /// An outbox whose sends wait at `gate` until it opens, over the services of `api`, with the
    /// server's lists taken.
    static func gated(_ api: APIClient, _ gate: Gate) async throws -> (Outbox, Services) {
        let services = services(api)
        let real = Outbox.Server(services)
        let outbox = Outbox(
            server: Outbox.Server(
                send: { list, ids in
                    await gate.pass()
                    return try await real.send(list, ids)
                }, reload: real.reload), file: nil, effects: .toastsOnly(), clock: .continuous)
        outbox.take(.likes, try await services.profile.load().map(\.likes))
        outbox.take(.cart, try await services.order.load().map(\.nfts))
        return (outbox, services)
    }

    static func adding(_ list: OutboxAction.List, _ ids: String...) -> OutboxAction {
        OutboxAction(list: list, changes: ids.map { OutboxAction.Change(id: $0, name: "N\($0)", adding: true) })
    }

    @Test func fastTogglesShowAtOnceAndAreNeverLost() async throws {
        try await TestServer.with { server async throws in
            let (state, _) = await Self.started(server.client())
            #expect(await eventually { state.profile != nil })
            let before = Set(try await server.client().profile().likes)
            var expected = before
            for id in ["1", "2", "3", "1", "1", "4", "2", "2"] {
                state.toggleLike(Self.nft(id))
                if expected.remove(id) == nil { expected.insert(id) }
                #expect(state.likes == expected, "shown in the same frame")
            }
            await state.outbox.settle()
            #expect(Set(try await server.client().profile().likes) == expected, "the server has the same likes")
            #expect(state.likes == expected && state.outbox.log.allSatisfy { $0.action.state == .confirmed })
        }
    }

    @Test func aRefusedLikeIsTakenBackAndSaid() async throws {
        try await TestServer.with { server async throws in
            let (state, effects) = await Self.started(server.client())
            #expect(await eventually { state.profile != nil })
            let before = try await server.client().profile().likes
            state.toggleLike(Self.nft("not-an-nft"))
            #expect(state.likes.contains("not-an-nft"), "shown before the server answered")
            await state.outbox.settle()
            #expect(!state.likes.contains("not-an-nft"), "taken back")
            let message = try #require(effects.toast?.message)
            #expect(message.hasPrefix("Could not change the like on Nnot-an-nft: ") && effects.toast?.kind == .error)
            #expect(try await server.client().profile().likes == before && state.likedIDs == before)
        }
    }

    /// Three NFTs put in the cart as one action, then `u`: the server's cart is as before (it went
    /// 3 → 6 → 5 when each NFT was its own change).
    @Test func undoTakesBackABatchTheServerHas() async throws {
        try await TestServer.with { server async throws in
            let (state, effects) = await Self.started(server.client())
            #expect(await eventually { state.cart != nil })
            let before = try await server.client().order().nfts
            let batch = ["1", "2", "3"].map(Self.nft)
            #expect(state.setInCart(batch, true) == 3)
            await state.outbox.settle()
            #expect(try await server.client().order().nfts == before + ["1", "2", "3"])
            state.undo()
            #expect(effects.toast?.message == "Undone: 3 NFTs out of the cart")
            #expect(state.cartIDs == before, "shown at once")
            await state.outbox.settle()
            #expect(try await server.client().order().nfts == before && state.cartIDs == before)
            state.undo()
            #expect(effects.toast?.message == "Nothing to undo", "the undoing is not itself undone")
        }
    }

    /// A batch waiting behind a request on its way is dropped by `u`: never sent.
    @Test func undoDropsABatchNotSentYet() async throws {
        try await TestServer.with { server async throws in
            let gate = Gate()
            let (outbox, _) = try await Self.gated(server.client(), gate)
            let before = try await server.client().order().nfts
            outbox.record(Self.adding(.cart, "1"))
            #expect(try await polled { await gate.arrived == 1 }, "the first is on its way")
            outbox.record(Self.adding(.cart, "2", "3"))
            #expect(outbox.cart == before + ["1", "2", "3"])
            let undone = try #require(outbox.undo())
            #expect(undone.changes.map(\.id) == ["2", "3"] && undone.state == .shown)
            #expect(outbox.cart == before + ["1"])
            await gate.open()
            await outbox.settle()
            #expect(try await server.client().order().nfts == before + ["1"])
            #expect(await gate.arrived == 1, "nothing else was sent")
        }
    }

    /// A like made and undone while the server cannot be reached: the kept file ends empty, and a
    /// later window on a server that answers sends nothing.
    @Test func anOfflineLikeUndoneOfflineSendsNothing() async throws {
        try await TestServer.with { server async throws in
            let folder = Self.folder()
            let kept = KeptChanges(directory: folder, server: "s", account: nil)
            let offline = APIClient(APIConfiguration(baseURL: URL(string: "http://127.0.0.1:1")!))
            let outbox = Outbox(
                server: Outbox.Server(Self.services(offline)), file: kept, effects: .toastsOnly(), clock: .continuous)
            let seen = try await server.client().versionedProfile()
            outbox.take(.likes, seen.map(\.likes).withoutVersion)
            outbox.record(Self.adding(.likes, "1"))
            await outbox.settle()
            #expect(outbox.waiting == 1 && kept.load().count == 1, "kept, written down")
            #expect(outbox.likes == seen.value.likes + ["1"])
            #expect(outbox.undo() != nil)
            #expect(outbox.waiting == 0 && outbox.likes == seen.value.likes)
            #expect(!FileManager.default.fileExists(atPath: kept.file.path))

            let (state, _) = await Self.started(server.client(), kept: kept)
            #expect(await eventually { state.profile != nil })
            await state.outbox.settle()
            #expect(state.outbox.log.isEmpty)
            #expect(try await server.client().versionedProfile().version == seen.version, "nothing was sent")
        }
    }

    /// Another window's change arrives (a live update) while this window's like is on its way:
    /// both are shown, and the server ends with both (the like sent again on the new version).
    @Test func aLiveUpdateDuringAPendingChangeKeepsTheChange() async throws {
        try await TestServer.with { server async throws in
            let gate = Gate()
            let (outbox, services) = try await Self.gated(server.client(), gate)
            let other = server.client()
            let before = try await other.versionedProfile()
            let (mine, theirs) = ("1", "2")
            #expect(!before.value.likes.contains(mine) && !before.value.likes.contains(theirs))
            outbox.record(Self.adding(.likes, mine))
            #expect(try await polled { await gate.arrived == 1 })
            let update = try await other.updateLikes(before.value.likes + [theirs], ifVersion: before.version)
            await services.profile.received(update)  // what the event stream hands the service
            outbox.take(.likes, update.map(\.likes))  // and the service the outbox
            #expect(outbox.likes == before.value.likes + [theirs, mine], "the pending like stays on top")
            await gate.open()
            await outbox.settle()
            #expect(try await other.profile().likes == before.value.likes + [theirs, mine])
            #expect(outbox.likes == before.value.likes + [theirs, mine] && outbox.waiting == 0)
        }
    }

    /// Two windows on one profile, each changing its own likes and cart: with If-Match and a rebase
    /// after each conflict, neither undoes the other.
    @Test func twoWindowsLoseNothing() async throws {
        try await TestServer.with { server async throws in
            let (first, _) = await Self.started(server.client()), (second, _) = await Self.started(server.client())
            #expect(await eventually { first.cart != nil && second.cart != nil && first.profile != nil })
            #expect(await eventually { second.profile != nil })
            let likes = Set(try await server.client().profile().likes), cart = try await server.client().order().nfts
            for id in 1...30 {
                let (mine, yours) = (Self.nft(String(id)), Self.nft(String(id + 30)))
                first.toggleLike(mine)
                second.toggleLike(yours)
                first.toggleCart(mine)
                second.toggleCart(yours)
                await Task.yield()
            }
            await first.outbox.settle()
            await second.outbox.settle()
            #expect(
                Set(try await server.client().profile().likes) == likes.symmetricDifference((1...60).map(String.init)))
            #expect(Set(try await server.client().order().nfts) == Set(cart + (1...60).map(String.init)))
        }
    }

    /// Likes and cart changes made while the server cannot be reached are shown, counted and
    /// written down; the next window shows them on what the server now holds and sends them on top
    /// of what another client changed meanwhile.
    @Test func changesMadeOfflineAreKeptThenSentOnTopOfWhatOthersChanged() async throws {
        try await TestServer.with { server async throws in
            let kept = KeptChanges(directory: Self.folder(), server: "s", account: nil)
            let other = server.client()
            let seen = try await other.profile(), seenOrder = try await other.order()
            let liked = try #require(seen.likes.first), newLike = "1", inCart = "2"
            #expect(!seen.likes.contains(newLike) && !seenOrder.nfts.contains(inCart))

            // Offline from the start (nobody listens on port 1): shown at once, kept, counted.
            let offline = APIClient(APIConfiguration(baseURL: URL(string: "http://127.0.0.1:1")!))
            let services = Self.services(offline, kept: kept)
            await services.profile.remember(seen)
            await services.order.remember(seenOrder)
            let (state, _) = await Self.started(services)
            #expect(await eventually { state.cart != nil && state.profile != nil })
            state.toggleLike(Self.nft(newLike))
            state.toggleLike(Self.nft(liked))
            state.toggleCart(Self.nft(inCart))
            await state.outbox.settle()
            #expect(state.waiting == 3 && state.freshness == .offline)
            #expect(state.likes.contains(newLike) && !state.likes.contains(liked) && state.cartIDs.contains(inCart))
            #expect(kept.load().map(\.changes.first?.id) == [newLike, liked, inCart])
            state.stop()

            // Meanwhile another client likes NFT 3.
            let fresh = try await other.versionedProfile()
            _ = try await other.updateLikes(fresh.value.likes + ["3"], ifVersion: fresh.version)

            // The next window has only the file: it shows it on what the server holds, then sends it.
            let (next, _) = await Self.started(server.client(), kept: kept)
            #expect(await eventually { next.profile != nil && next.cart != nil })
            await next.outbox.settle()
            let now = try await other.profile()
            #expect(Set(now.likes) == Set(seen.likes).union([newLike, "3"]).subtracting([liked]))
            #expect(Set(try await other.order().nfts) == Set(seenOrder.nfts + [inCart]))
            #expect(next.waiting == 0 && Set(next.likedIDs) == Set(now.likes))
            #expect(!FileManager.default.fileExists(atPath: kept.file.path))
        }
    }

    /// A payment pays for the cart shown: cart changes kept offline are sent before it.
    @Test func aPaymentSendsTheKeptCartChangesFirst() async throws {
        try await TestServer.with { server async throws in
            let kept = KeptChanges(directory: Self.folder(), server: "s", account: nil)
            let api = server.client()
            let before = try await api.order().nfts
            try kept.save([Self.adding(.cart, "1")])  // an earlier run's, made offline
            let (state, _) = await Self.started(api, kept: kept)
            #expect(state.cartIDs.contains("1"), "shown before the server answers")
            let result = try await state.pay(currencyID: "1")
            #expect(result.success)
            #expect(Set(try await api.profile().nfts).isSuperset(of: before + ["1"]), "NFT 1 was paid for too")
            #expect(try await api.order().nfts.isEmpty && kept.load().isEmpty)
        }
    }

    /// One kept action the server refuses (an id it does not know) is named and taken back; the
    /// others it takes are sent, not dropped with it.
    @Test func anActionTheServerRefusesIsNamedAndTheOthersAreSent() async throws {
        try await TestServer.with { server async throws in
            let kept = KeptChanges(directory: Self.folder(), server: "s", account: nil)
            let api = server.client()
            let (order, owned) = (try await api.order(), try await api.profile().nfts)
            let free = try #require(
                try await api.nfts(page: 0, size: 100).map(\.id).first {
                    !order.nfts.contains($0) && !owned.contains($0)
                })
            let removal = OutboxAction(
                list: .cart, changes: [OutboxAction.Change(id: order.nfts[0], name: "first", adding: false)])
            try kept.save([Self.adding(.cart, "999999"), Self.adding(.cart, free), removal])
            let (state, effects) = await Self.started(api, kept: kept)
            #expect(
                await eventually { state.waiting == 0 && state.outbox.log.allSatisfy { $0.action.state == .confirmed } }
            )
            let now = try await api.order().nfts
            #expect(now.contains(free) && !now.contains(order.nfts[0]) && !now.contains("999999"), "\(now)")
            #expect(state.cartIDs == now)
            #expect(effects.toast?.message.hasPrefix("Could not change the cart for N999999: ") == true)
            #expect(!FileManager.default.fileExists(atPath: kept.file.path))
        }
    }
}

/// Where a test holds the outbox's requests: each waits until the test opens it.
actor Gate {
    private(set) var arrived = 0
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func pass() async {
        arrived += 1
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        waiting.forEach { $0.resume() }
        waiting = []
    }
}

extension Versioned {
    /// The same value as a saved copy holds it: no version.
    var withoutVersion: Versioned { Versioned(value: value, version: nil) }
}
