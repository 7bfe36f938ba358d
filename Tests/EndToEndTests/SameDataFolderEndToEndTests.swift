import FakeNFTCore
import Foundation
import Glibc
import Testing

extension EndToEnd {
    /// Several `fakenft` windows of one user (one data folder, each app with its embedded server)
    /// and `fakenft serve` on the same folder are one state: what one window changes, the others
    /// show, no write is refused, and killing a window loses nothing acknowledged.
    @Suite struct SameDataFolderEndToEndTests {
        /// The data folder of the embedded servers of a shell whose home is the test's folder.
        static let dataFolder = ".local/share/fakenft"

        func press(_ key: String, times: Int, in tmux: Tmux) async throws {
            for _ in 0..<times {
                try await tmux.keys(key)
                try await Task.sleep(for: .milliseconds(30))  // the key-repeat rate being tested, not a wait
            }
        }

        /// The liked hearts on a screen.
        func hearts(_ screen: String) -> Int { screen.filter { $0 == "♥" }.count }

        /// The number in the tab bar's `Cart [n]`.
        func cartCount(_ screen: String) -> Int? {
            guard let range = screen.range(of: #"Cart \[\d+\]"#, options: .regularExpression) else { return nil }
            return Int(screen[range].dropFirst(6).dropLast())
        }

        @Test func windowsOnOneDataFolderAreOneState() async throws {
            let first = try await Tmux(width: 100, height: 30)
            let second = try await Tmux(width: 100, height: 30, sharingHomeWith: first)
            // `fakenft serve` on the windows' own data folder (the test's view of the state on disk),
            // in the second's shell: the first's app is the one killed.
            let server = try await second.startServer(data: Self.dataFolder)
            let api = APIClient(APIConfiguration(baseURL: server))
            let (cartBefore, likesBefore) = (try await api.order().nfts, try await api.profile().likes)
            try await first.launchApp()
            try await second.launchApp()
            for window in [first, second] {
                try await window.keys("Enter")  // the first collection
                try await window.waitFor("[+ cart]")
            }
            let heartsBefore = hearts(try await first.screen())
            #expect(hearts(try await second.screen()) == heartsBefore)
            // Both windows at key-repeat speed, on different NFTs: each flips one NFT's cart and like.
            try await second.keys("Right")
            try await press("c", times: 7, in: first)
            try await press("c", times: 7, in: second)
            try await press("l", times: 7, in: first)
            try await press("l", times: 7, in: second)
            var cart: [String] = [], likes: [String] = []
            try await eventually("both windows' changes on disk") {
                (cart, likes) = (try await api.order().nfts, try await api.profile().likes)
                return Set(cart).symmetricDifference(cartBefore).count == 2
                    && Set(likes).symmetricDifference(likesBefore).count == 2
            }
            // Both flipped NFTs are on screen, so the hearts change by what the likes did.
            let heartsAfter = heartsBefore + likes.count - likesBefore.count
            for window in [first, second] {
                try await window.waitUntil("the cart and the likes on disk, in both windows") { screen in
                    cartCount(screen) == cart.count && hearts(screen) == heartsAfter
                }
            }

            // The first window killed: the second keeps working, and a third joining late sees it all.
            #expect(kill(try await first.childPID(), SIGKILL) == 0)
            try await first.waitFor("EXIT=")
            try await second.keys("c")  // the second window's NFT flipped back
            try await eventually("the second window's change on disk") {
                try await api.order().nfts.count != cart.count
            }
            let cartNow = try await api.order().nfts.count
            try await second.waitUntil("the cart on disk") { cartCount($0) == cartNow }
            let third = try await Tmux(width: 100, height: 30, sharingHomeWith: first)
            try await third.launchApp(waitingFor: "Cart [\(cartNow)]")
            try await third.keys("Enter")
            try await third.waitFor("[+ cart]")
            #expect(hearts(try await third.screen()) == heartsAfter)
            for window in [second, third] {
                try await window.keys("q")
                try await window.waitFor("EXIT=0")
            }
            #expect(try await api.profile().likes == likes)
            try await second.type("kill %1")
        }
    }
}
