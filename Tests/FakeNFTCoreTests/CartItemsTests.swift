import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// The cart's NFTs as a service publishes them: read only while followed, again when the cart
/// shown changes, checked against the server over HTTP.
@Suite struct CartItemsTests {
    /// NFTs the server has answered by id so far (its `/metrics`).
    func nftReads(_ server: TestServer) async throws -> Int {
        let text = String(decoding: try await server.request("GET", "/metrics").body, as: UTF8.self)
        return text.split(separator: "\n").filter {
            $0.hasPrefix("fakenft_http_requests_total{") && $0.contains("/nft/") && $0.contains("method=\"GET\"")
        }.compactMap { Double($0.split(separator: " ").last ?? "").map(Int.init) }.reduce(0, +)
    }

    @Test func theCartsNFTsArePublishedWhileFollowedAndFollowTheCart() async throws {
        try await TestServer.with { server async throws in
            let api = server.client()
            let items = CartItems(catalog: CatalogService(api: api))
            let (carts, cart) = AsyncStream.makeStream(of: [String].self)
            let before = try await nftReads(server)
            try await Task.sleep(for: .milliseconds(100))
            #expect(try await nftReads(server) == before, "nothing is read until a screen follows the cart")

            let following = Task { await items.follow(carts) }
            defer { following.cancel() }
            var published = items.updates().makeAsyncIterator()
            let ids: [String] = try await server.get("/api/v1/orders/1", as: Order.self).nfts
            cart.yield(ids)
            let first = try #require(await published.next()).get()
            #expect(first.map(\.id) == ids)
            #expect(try await nftReads(server) > before, "following reads them")
            for nft in first {
                let served: NFT = try await server.get("/api/v1/nft/\(nft.id)")
                #expect(nft.name == served.name && nft.price == served.price)
            }
            let added = try #require(try await api.nfts(page: 0, size: 20).first { !ids.contains($0.id) })
            cart.yield(ids + [added.id])
            var next = try #require(await published.next()).get()
            while next.count == first.count { next = try #require(await published.next()).get() }
            #expect(next.map(\.id) == ids + [added.id], "the cart changed: its NFTs are published again")
        }
    }
}
