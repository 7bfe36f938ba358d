import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// `u` on the real binary in tmux: a cart change and a like taken back, said in the footer,
    /// and the server (read over HTTP) as it was.
    @Suite struct UndoEndToEndTests {
        @Test func uTakesBackACartChangeAndALike() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            let (likesBefore, cartBefore) = (try await api.profile().likes, try await api.order().nfts)
            try await tmux.launchApp("--server \(server.absoluteString)", waitingFor: "Cart [\(cartBefore.count)]")
            let collection = try await api.collectionsInCatalogOrder()[0]
            let first = try await api.nft(id: collection.nfts[0])
            try await tmux.keys("Enter")
            try await tmux.waitFor(first.name)
            try await tmux.keys("l", "c")
            let added = cartBefore.contains(first.id) ? cartBefore.count - 1 : cartBefore.count + 1
            try await tmux.waitFor("Cart [\(added)]")
            #expect(try await polled { try await api.order().nfts.count == added })
            try await tmux.keys("u")
            try await tmux.waitFor("Undone: \(first.name)")
            try await tmux.waitFor("Cart [\(cartBefore.count)]")
            #expect(try await polled { try await api.order().nfts.sorted() == cartBefore.sorted() })
            try await tmux.keys("u")
            try await tmux.waitFor(likesBefore.contains(first.id) ? "liked again" : "no longer liked")
            #expect(try await polled { try await api.profile().likes.sorted() == likesBefore.sorted() })
            try await tmux.keys("u")
            try await tmux.waitFor("Nothing to undo")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }
    }
}
