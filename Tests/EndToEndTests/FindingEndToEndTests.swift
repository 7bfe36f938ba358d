import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// Finding on the real binary in tmux: a kept `/` search's `n` and `N` walk its matches round
    /// the ends, the bar saying which one, and the tab's number clears it; Ctrl-P goes anywhere.
    @Suite struct FindingEndToEndTests {
        @Test func nAndNWalkTheMatchesOfAKeptSearch() async throws {
            let tmux = try await Tmux(width: 100, height: 40)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            try await tmux.launchApp("--server \(server.absoluteString)")
            let collections = try await api.collectionsInCatalogOrder()
            let matches = collections.map(\.name).filter { $0.lowercased().contains("e") }
            try #require(matches.count >= 3)
            try await tmux.keys("/", "e", "Enter")
            /// The selected row (the `▌` marker) names `match`, and the bar says which of how many.
            func expectSelected(_ match: Int) async throws {
                let bar = "search: e · \(match + 1) of \(matches.count)"
                let screen = try await tmux.waitFor(bar)
                let marked = screen.split(separator: "\n").first { $0.contains("▌") && $0.contains("(") } ?? ""
                #expect(marked.contains(matches[match]), "\(bar): \(marked)")
            }
            try await expectSelected(0)
            for (key, match) in [("n", 1), ("n", 2), ("N", 1), ("N", 0), ("N", matches.count - 1), ("n", 0)] {
                try await tmux.keys(key)
                try await expectSelected(match)
            }
            try await tmux.keys("1")  // the tab's number on its first screen
            try await tmux.waitFor("Search cleared")
            try await tmux.waitFor("\(collections.count) collections, by NFT count")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }

        /// Ctrl-P from the cart: a few letters of a collection, Enter opens it over the cart, Esc
        /// comes back to the cart.
        @Test func ctrlPGoesToACollectionAndBackReturns() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            try await tmux.launchApp("--server \(server.absoluteString)")
            let collection = try await api.collectionsInCatalogOrder()[0]
            let order = try await api.order()
            try await tmux.keys("2")
            try await tmux.waitFor("Pay")
            try await tmux.keys("C-p")
            try await tmux.waitFor("Go to")
            try await tmux.run(["send-keys", "-t", tmux.session, "-l", String(collection.name.lowercased().prefix(4))])
            try await tmux.waitFor("\(collection.name)  collection, \(collection.nfts.count) NFTs")
            try await tmux.keys("Enter")
            try await tmux.waitFor("Cart › \(collection.name)")
            try await tmux.waitFor("Collection author:")
            try await tmux.keys("Escape")
            let back = try await tmux.waitUntil("the cart again") { !$0.contains("Cart ›") && $0.contains("Pay") }
            #expect(back.contains("\(order.nfts.count) NFTs"), "\(back)")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }
    }
}
