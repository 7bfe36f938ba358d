import FakeNFTCore
import Foundation
import Testing

extension EndToEnd {
    /// `c` and `l` held down (presses 30 ms apart) against `fakenft serve`, whose live updates echo
    /// every change back while the next presses are on their way: the cart and the likes end as
    /// the presses add up to, on the server and on screen.
    @Suite struct KeyRepeatEndToEndTests {
        /// The ids in one list and not the other.
        func difference(_ a: [String], _ b: [String]) -> Set<String> { Set(a).symmetricDifference(b) }

        func press(_ key: String, times: Int, in tmux: Tmux) async throws {
            for _ in 0..<times {
                try await tmux.keys(key)
                try await Task.sleep(for: .milliseconds(30))  // the key-repeat rate being tested, not a wait
            }
        }

        @Test(arguments: [7, 8, 21]) func everyPressCounts(_ presses: Int) async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            let (orderBefore, likesBefore) = (try await api.order().nfts, try await api.profile().likes)
            try await tmux.launchApp("--server \(server.absoluteString)")
            try await tmux.keys("Enter")  // the first collection
            try await tmux.waitFor("[+ cart]")
            try await press("c", times: presses, in: tmux)
            try await press("l", times: presses, in: tmux)
            let odd = presses % 2 == 1
            // The screen settles on what the presses add up to (the selected cell's marks)...
            try await tmux.waitUntil("the cart mark of \(presses) presses") { screen in
                odd
                    ? screen.contains("Cart [\(orderBefore.count + 1)]")
                    : screen.contains("Cart [\(orderBefore.count)]")
            }
            try await tmux.keys("q")  // the app waits for its writes before it ends
            try await tmux.waitFor("EXIT=0")
            // ...and so does the server.
            let changedOrder = difference(try await api.order().nfts, orderBefore)
            let changedLikes = difference(try await api.profile().likes, likesBefore)
            #expect(changedOrder.count == (odd ? 1 : 0), "cart after \(presses) presses: \(changedOrder)")
            #expect(changedLikes.count == (odd ? 1 : 0), "likes after \(presses) presses: \(changedLikes)")
            try await tmux.type("kill %1")
        }
    }
}
