import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// `fakenft --accessible` on the real binary: after each key the terminal cursor (what a screen
    /// reader follows) is shown on the selected row or cell, at the line that names it.
    @Suite struct AccessibleEndToEndTests {
        /// Where tmux says the cursor is, and whether it is shown.
        func cursor(_ tmux: Tmux) async throws -> (x: Int, y: Int, shown: Bool) {
            let fields = try await tmux.run([
                "display", "-p", "-t", tmux.session, "#{cursor_x} #{cursor_y} #{cursor_flag}",
            ])
            .split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            try #require(fields.count == 3)
            return (fields[0], fields[1], fields[2] == 1)
        }

        /// The screen's line `y`, from column `x`.
        func line(_ tmux: Tmux, _ y: Int, from x: Int = 0) async throws -> String {
            let lines = try await tmux.screen().split(separator: "\n", omittingEmptySubsequences: false)
            return y < lines.count ? String(lines[y].dropFirst(x)) : ""
        }

        @Test func theCursorFollowsTheSelection() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            try await tmux.launchApp("--accessible --server \(server.absoluteString)")
            let collections = try await api.collectionsInCatalogOrder()
            // The catalog: on each key, the cursor is shown on the line naming the selected collection.
            for (step, collection) in collections.prefix(4).enumerated() {
                if step > 0 { try await tmux.keys(step % 2 == 0 ? "j" : "Down") }
                let place = try await waitForCursor(tmux) {
                    try await line(tmux, $0.y).contains("\(collection.name) (")
                }
                #expect(place.shown, "shown with --accessible")
            }
            try await tmux.keys("k", "k", "k")
            _ = try await waitForCursor(tmux) { try await line(tmux, $0.y).contains("\(collections[0].name) (") }

            // A collection's grid: the cursor at the selected cell's name, right then down.
            try await tmux.keys("Enter")
            let nfts = try await collections[0].nfts.asyncMap { try await api.nft(id: $0) }
            let grid = try await tmux.waitFor(nfts[0].name)
            // Words, not glyphs a screen reader names "light shade" or "black star".
            #expect(!grid.contains("░") && !grid.contains("★") && !grid.contains("☆"), "\(grid)")
            #expect(grid.contains("\(nfts[0].rating) of 5") && grid.contains("Picture: "), "\(grid)")
            // A picture's name is never split mid-word (a reader would say "Pictur", "e").
            let fragments = grid.split(whereSeparator: \.isWhitespace).filter {
                $0.hasPrefix("Pict") && $0 != "Picture:" && !$0.hasSuffix("…")
            }
            #expect(fragments.isEmpty, "\(fragments)\n\(grid)")
            let first = try await waitForCursor(tmux) { try await line(tmux, $0.y, from: $0.x).hasPrefix(nfts[0].name) }
            try await tmux.keys("Right")  // the next cell: on the same line, further right, at another NFT's name
            let others = nfts.dropFirst().map(\.name)
            _ = try await waitForCursor(tmux) { place in
                let text = try await line(tmux, place.y, from: place.x)
                return place.y == first.y && place.x > first.x && others.contains { text.hasPrefix($0) }
            }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }

        /// Onboarding is read from its page's title, and the help overlay from its top.
        @Test func onboardingAndHelpAreReadFromTheirTop() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            try await tmux.launchApp("--accessible", waitingFor: "Welcome to FakeNFT", throughWelcome: false)
            let title = try await waitForCursor(tmux) {
                try await line(tmux, $0.y, from: $0.x).hasPrefix("Welcome to FakeNFT")
            }
            #expect(title.shown)
            try await tmux.passWelcome(waitingFor: "9 collections")
            try await tmux.keys("?")
            _ = try await tmux.waitFor("Help")
            // the first heading
            _ = try await waitForCursor(tmux) { try await line(tmux, $0.y, from: $0.x).hasPrefix("Catalog") }
            try await tmux.keys("Escape", "q")
            try await tmux.waitFor("EXIT=0")
        }

        /// Without --accessible the cursor stays hidden.
        @Test func hiddenWithoutTheOption() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            try await tmux.launchApp()
            #expect(!(try await cursor(tmux).shown))
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }

        /// Waits (up to 15 s) until the cursor's place satisfies `holds`; the place.
        private func waitForCursor(
            _ tmux: Tmux, _ holds: ((x: Int, y: Int, shown: Bool)) async throws -> Bool
        ) async throws -> (x: Int, y: Int, shown: Bool) {
            var place = try await cursor(tmux)
            let reached = try await polled(every: .milliseconds(50), within: .seconds(15)) {
                place = try await cursor(tmux)
                return try await holds(place)
            }
            guard reached else {
                throw E2EError("cursor at \(place) on: \(try await line(tmux, place.y))\n\(try await tmux.screen())")
            }
            return place
        }
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
