import Foundation
import Testing

extension EndToEnd {
    /// The Statistics journey on the real binary.
    @Suite struct StatisticsEndToEndTests {
        @Test func sortByNameOpenUserCollectionAndAddToCart() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            try await tmux.launchApp(waitingFor: "Cart [3]")
            try await tmux.keys("4")
            try await tmux.waitFor("Users by rating")
            try await tmux.keys("s")
            try await tmux.waitFor("By rating")
            try await tmux.keys("1")
            try await tmux.waitFor("Users by name")
            // Walk down to the first user who owns NFTs.
            func selected(_ screen: String) -> String {
                (screen.split(separator: "\n").first { $0.contains("▌") } ?? "").trimmingCharacters(
                    in: CharacterSet(charactersIn: " ┃│"))
            }
            var row = selected(try await tmux.screen())
            for _ in 0..<100 {
                if row.hasSuffix(" NFTs") && !row.hasSuffix(" 0 NFTs") || row.hasSuffix(" 1 NFT") { break }
                try await tmux.keys("Down")
                // The selected row itself changed (a page arriving also changes the screen).
                let before = row
                row = selected(
                    try await tmux.waitUntil("selection moved") { selected($0) != before && !selected($0).isEmpty })
            }
            try await tmux.keys("Enter")
            try await tmux.waitFor("Go to the user's website")
            try await tmux.keys("Down", "Enter")
            try await tmux.waitFor("[+ cart]")
            try await tmux.keys("c")
            try await tmux.waitFor("Cart [4]")
            try await tmux.waitFor("[✕ cart]")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }
    }
}
