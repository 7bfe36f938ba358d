import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// Marks on the real binary in tmux: Space on two cells, `c` puts both in the cart (the server,
    /// over HTTP, has them), the footer having said how many were marked; `u` takes both out again,
    /// one action.
    @Suite struct MarksEndToEndTests {
        @Test func spaceMarksTwoAndCPutsBothInTheCartAndUTakesBothOut() async throws {
            let tmux = try await Tmux(width: 120, height: 40)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            let cartBefore = try await api.order().nfts
            try await tmux.launchApp("--server \(server.absoluteString)", waitingFor: "Cart [\(cartBefore.count)]")
            let collection = try await api.collectionsInCatalogOrder()[0]
            let first = try await api.nft(id: collection.nfts[0]), second = try await api.nft(id: collection.nfts[1])
            try #require(!cartBefore.contains(first.id) && !cartBefore.contains(second.id))
            try await tmux.keys("Enter")
            try await tmux.waitFor(second.name)
            try await tmux.keys("Space")
            try await tmux.waitFor("✓ \(first.name)")
            try await tmux.keys("Space")
            let marked = try await tmux.waitFor("2 marked: clear")
            #expect(marked.contains("✓ \(second.name)"), "\(marked)")
            try await tmux.keys("c")
            try await tmux.waitFor("Cart [\(cartBefore.count + 2)]")
            #expect(try await polled { Set(try await api.order().nfts) == Set(cartBefore + [first.id, second.id]) })
            try await tmux.waitUntil("the marks cleared") { !$0.contains("marked") && !$0.contains("✓ ") }
            try await tmux.keys("u")
            try await tmux.waitFor("Undone: 2 NFTs out of the cart")
            try await tmux.waitFor("Cart [\(cartBefore.count)]")
            #expect(try await polled { try await api.order().nfts == cartBefore })
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }
    }
}
