import Foundation
import Testing

extension EndToEnd {
    /// The Profile journey on the real binary: Cyrillic edits survive a restart, and an unlike in
    /// Favorites shows in the Catalog.
    @Suite struct ProfileEndToEndTests {
        @Test func cyrillicEditsSurviveARestartAndUnlikeShowsInCatalog() async throws {
            let tmux = try await Tmux(width: 120, height: 40)
            try await tmux.launchApp()
            try await tmux.keys("3")
            try await tmux.waitFor("My NFTs (13)")
            try await tmux.keys("e")
            try await tmux.waitFor("Edit profile")
            try await tmux.keys("C-u")
            try await tmux.run(["send-keys", "-t", tmux.session, "-l", "Анна Каренина"])
            try await tmux.keys("Tab", "C-u")
            try await tmux.run(["send-keys", "-t", tmux.session, "-l", "Люблю NFT и чай"])
            try await tmux.keys("C-s")
            try await tmux.waitUntil("saved profile") { $0.contains("Анна Каренина") && !$0.contains("Edit profile") }
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")

            try await tmux.type("clear")
            try await tmux.launchApp()
            try await tmux.keys("3")
            try await tmux.waitFor("Анна Каренина")
            try await tmux.waitFor("Люблю NFT и чай")
            // Favorites follow the profile's likes: 5, 13, 19, 26 (Ollie, the only liked NFT of Blue), ...
            try await tmux.keys("Down", "Enter")
            try await tmux.waitFor("Ollie")
            try await tmux.keys("Right", "Right", "Right", "l")
            try await tmux.waitUntil("Ollie left the grid") { !$0.contains("Ollie") }
            try await tmux.keys("Escape", "1")
            try await tmux.waitFor("9 collections, by NFT count")
            try await tmux.keys("End", "Up", "Enter")  // Blue is next to last by NFT count
            try await tmux.waitFor("Catalog › Blue")
            try await tmux.waitFor("Ollie")
            #expect(!(try await tmux.screen().contains("♥")), "no heart left in Blue")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }
    }
}
