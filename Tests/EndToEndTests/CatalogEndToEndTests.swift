import Foundation
import Testing

extension EndToEnd {
    /// The Catalog journey on the real binary with its embedded server, across a restart.
    @Suite struct CatalogEndToEndTests {
        func count(_ needle: String, in screen: String) -> Int { screen.components(separatedBy: needle).count - 1 }

        @Test func likeAndCartSurviveARestartWithTheSortChoice() async throws {
            let tmux = try await Tmux(width: 120, height: 40)
            try await tmux.launchApp()
            try await tmux.waitFor("Cart [3]")
            try await tmux.keys("s")
            try await tmux.waitFor("By NFT count")
            try await tmux.keys("1")
            try await tmux.waitFor("9 collections, by name")
            try await tmux.keys("Down", "Enter")  // Beige, Blue, ...: open Blue
            try await tmux.waitFor("Catalog › Blue")
            try await tmux.waitFor("Clover")
            let before = try await tmux.screen()
            #expect(count("♥", in: before) == 1)  // Ollie is liked in the gen1 data
            try await tmux.keys("Right", "l", "c")  // Clover
            try await tmux.waitFor("Cart [4]")
            try await tmux.waitUntil("two hearts") { count("♥", in: $0) == 2 && $0.contains("[✕ cart]") }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")

            try await tmux.type("clear")
            try await tmux.launchApp()
            try await tmux.waitFor("9 collections, by name")  // the sort choice was kept
            try await tmux.waitFor("Cart [4]")  // the cart item was kept
            try await tmux.keys("Down", "Enter")
            try await tmux.waitFor("Clover")
            try await tmux.keys("Right", "Enter")
            try await tmux.waitFor("Blue › Clover")
            try await tmux.waitFor("♥ Liked")  // the like was kept
            #expect(try await tmux.screen().contains("[✕ cart]"))
            try await tmux.keys("Escape", "Escape")
            try await tmux.waitFor("9 collections, by name")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }

        /// With `--mouse`, the terminal's click reports (SGR, as tmux forwards them) reach the app's
        /// own decoder: a click picks a collection, a second click on it opens it.
        @Test func aClickPicksACollectionAndASecondOpensIt() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            try await tmux.launchApp("--mouse")
            let screen = try await tmux.waitFor("Peach (")
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            let row = try #require(lines.firstIndex { $0.contains("Peach (") })
            let column = try #require(lines[row].range(of: "Peach (")).lowerBound.utf16Offset(in: lines[row])
            let click = "\u{1B}[<0;\(column + 2);\(row + 1)M\u{1B}[<0;\(column + 2);\(row + 1)m"
            let hex = click.utf8.map { String(format: "%02x", $0) }
            for _ in 0..<2 { try await tmux.run(["send-keys", "-t", tmux.session, "-H"] + hex) }
            try await tmux.waitFor("Catalog › Peach")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }
    }
}
