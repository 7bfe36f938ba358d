import FakeNFTServer
import Foundation
import Hummingbird
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// The services against the real in-process server, over HTTP.
@Suite struct ServiceTests {
    @Test func cartAndPayment() async throws {
        try await TestServer.with { server async throws in
            let api = server.client()
            let profile = ProfileService(api: api)
            let order = OrderService(api: api, profile: profile)
            let loaded = try await order.load()
            _ = try await order.sendNFTs(["94", "95", "1"], ifVersion: loaded.version)
            #expect(try await api.order().nfts == ["94", "95", "1"])
            let failed = try await order.pay(currencyID: "2")
            #expect(!failed.success && order.current?.nfts.count == 3)
            let paid = try await order.pay(currencyID: "1")
            #expect(paid.success)
            let serverOrder = try await api.order()
            #expect(order.current?.nfts == [] && serverOrder.nfts == [])
            #expect(Array(profile.current?.nfts.suffix(3) ?? []) == ["94", "95", "1"])
        }
    }

    /// A server that holds every NFT request open for a moment and counts how many overlap:
    /// the service fetches in parallel, never beyond its cap, once per NFT, then from the cache.
    @Test func catalogFetchesInParallelWithACapAndCaches() async throws {
        let counter = InFlightCounter()
        let router = Router()
        router.get("api/v1/nft/:id") { _, context -> Response in
            let id = try context.parameters.require("id")
            await counter.enter()
            try await Task.sleep(for: .milliseconds(20))
            await counter.leave()
            let body =
                #"""
                {"id":"\#(id)","name":"N\#(id)","images":[],"rating":3,"description":"","price":1,"author":"a",
                 "createdAt":""}
                """#
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        let ids = (1...60).map(String.init)
        try await withRouter(router) { url in
            let catalog = CatalogService(api: APIClient(APIConfiguration(baseURL: url)))
            let nfts = try await catalog.nfts(ids: ids + ["7", "7"])
            #expect(nfts.map(\.id) == ids + ["7", "7"], "in the order asked, duplicates included")
            let peak = await counter.peak
            #expect(peak > 1, "requests overlap")
            #expect(peak <= CatalogService.maxConcurrentRequests, "never more than the cap in flight")
            #expect(await counter.total == ids.count, "one request per distinct NFT")
            _ = try await catalog.nfts(ids: ids)
            #expect(await counter.total == ids.count, "served from the cache")
        }
    }

    @Test func usersArePaged() async throws {
        try await TestServer.with(seed: .large(users: 300, nfts: 95)) { server async throws in
            let users = UserService(api: server.client())
            let first = try await users.page(0, sorting: .rating)
            let second = try await users.page(1, sorting: .rating)
            #expect(first.count == UserService.pageSize && second.count == UserService.pageSize)
            #expect(first.first!.ratingValue >= second.first!.ratingValue)
            #expect(Set(first.map(\.id)).isDisjoint(with: second.map(\.id)))
            let byName = try await users.page(0, sorting: .name)
            #expect(byName.map(\.name) == byName.map(\.name).sorted())
        }
    }

    @Test func clientCoversEveryEndpoint() async throws {
        try await TestServer.with { server async throws in
            let api = server.client()
            #expect(try await api.nfts(page: 1, size: 10).map(\.id) == (11...20).map(String.init))
            #expect(try await api.nft(id: "1").name == "April")
            #expect(try await api.collection(id: "2").name == "Blue")
            #expect(try await api.currency(id: "2").name == "DOGE")
            #expect(try await api.user(id: "1").rating == "77")
            #expect(try await api.users(page: 0, size: 3, sortBy: "rating,desc").map(\.rating) == ["100", "99", "98"])
        }
    }

    @Test func sortPreferencesPersistAtomically() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "prefs-\(UUID().uuidString)/fakenft/preferences.json")
        let store = PreferencesStore(fileURL: file)
        #expect(await store.current == SortPreferences())
        let defaults = await store.current
        #expect(
            defaults.catalog == .nftCount && defaults.cart == .name && defaults.myNFTs == .rating
                && defaults.statistics == .rating)
        try await store.update {
            $0.catalog = .name
            $0.statistics = .name
        }
        let reopened = PreferencesStore(fileURL: file)
        let saved = await reopened.current
        #expect(saved.catalog == .name && saved.statistics == .name)
        try Data("{not json".utf8).write(to: file)
        #expect(
            await PreferencesStore(fileURL: file).current == SortPreferences(), "a broken file falls back to defaults")
        #expect(
            PreferencesStore.defaultURL(environment: ["XDG_CONFIG_HOME": "/x"]).path == "/x/fakenft/preferences.json")
    }
}
