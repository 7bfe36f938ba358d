import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting

/// A kept `/` search on the real binary in tmux: `n` and `N` walk its matches round the ends,
/// the bar saying which one; the tab's number clears it.
@Suite(.serialized) struct SearchEndToEndTests {
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
}
