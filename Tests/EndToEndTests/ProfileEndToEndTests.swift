import Foundation
import Testing

/// The Profile journey on the real binary: Cyrillic edits survive a restart, and an unlike in
/// Favorites shows in the Catalog.
@Suite(.serialized) struct ProfileEndToEndTests {
    @Test func cyrillicEditsSurviveARestartAndUnlikeShowsInCatalog() throws {
        let tmux = try Tmux(width: 120, height: 40)
        try tmux.launchApp()
        try tmux.keys("3")
        try tmux.waitFor("My NFTs (13)")
        try tmux.keys("e")
        try tmux.waitFor("Edit profile")
        try tmux.keys("C-u")
        try tmux.run(["send-keys", "-t", tmux.session, "-l", "Анна Каренина"])
        try tmux.keys("Tab", "C-u")
        try tmux.run(["send-keys", "-t", tmux.session, "-l", "Люблю NFT и чай"])
        try tmux.keys("C-s")
        try tmux.waitUntil("saved profile") { $0.contains("Анна Каренина") && !$0.contains("Edit profile") }
        try tmux.keys("q")
        try tmux.waitFor("EXIT=0")

        try tmux.type("clear")
        try tmux.launchApp()
        try tmux.keys("3")
        try tmux.waitFor("Анна Каренина")
        try tmux.waitFor("Люблю NFT и чай")
        // Favorites follow the profile's likes: 5, 13, 19, 26 (Ollie, the only liked NFT of Blue), ...
        try tmux.keys("Down", "Enter")
        try tmux.waitFor("Ollie")
        try tmux.keys("Right", "Right", "Right", "l")
        try tmux.waitUntil("Ollie left the grid") { !$0.contains("Ollie") }
        try tmux.keys("Escape", "1")
        try tmux.waitFor("9 collections, by NFT count")
        try tmux.keys("End", "Up", "Enter")                   // Blue is next to last by NFT count
        try tmux.waitFor("Catalog › Blue")
        try tmux.waitFor("Ollie")
        #expect(try !tmux.screen().contains("♥"), "no heart left in Blue")
        try tmux.keys("q")
        try tmux.waitFor("EXIT=0")
    }
}
