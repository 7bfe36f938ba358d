import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// `fakenft --read-only` on the real binary: what would change the server is absent from screens,
    /// footers and help, and its keys change nothing (the server, read over HTTP, is as it was).
    @Suite struct ReadOnlyEndToEndTests {
        @Test func nothingThatChangesDataIsOfferedOrDone() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            let (profileBefore, orderBefore) = (try await api.profile(), try await api.order())
            try await tmux.launchApp("--read-only --server \(server.absoluteString)", waitingFor: "Cart [3]")

            // A collection's grid: names, prices, no heart or cart buttons, no like or cart hints.
            try await tmux.keys("Enter")  // the biggest collection
            let collections = try await api.collectionsInCatalogOrder()
            let first = try await api.nft(id: collections[0].nfts[0])
            let grid = try await tmux.waitFor(first.name)
            #expect(grid.contains(String(format: "%.2f ETH", first.price)), "\(grid)")
            for button in ["[+ cart]", "[✕ cart]", "♡", "l like", "c cart"] {
                #expect(!grid.contains(button), "\(grid)")
            }
            #expect(grid.split(separator: "\n")[1].hasSuffix("read-only"), "the mode is said: \(grid)")
            try await tmux.keys("l", "c")  // no action behind them, and they say why
            try await tmux.waitFor("Read-only mode: likes, the cart, payment and profile edits are off.")
            try await tmux.keys("?")
            let help = try await tmux.waitFor("Help")
            #expect(!help.contains("Like / unlike") && !help.contains("remove from the cart"), "\(help)")
            #expect(help.contains("Open the NFT") || help.contains("Enter"), "the other keys are still listed")
            try await tmux.keys("Escape")
            // The palette lists the like with its key and why it cannot act; run, it says so.
            try await tmux.keys(":")
            try await tmux.waitFor("Commands")
            try await tmux.run(["send-keys", "-t", tmux.session, "-l", "like"])
            let palette = try await tmux.waitFor("— read-only")
            #expect(palette.contains("Like / unlike"), "\(palette)")
            try await tmux.keys("Enter")
            try await tmux.waitFor("read-only")

            // The NFT screen: its facts, the like state as text, no toggles.
            try await tmux.keys("Enter")
            let detail = try await tmux.waitFor("Not liked")
            #expect(!detail.contains("(l)") && !detail.contains("(c)") && !detail.contains("[+ cart]"), "\(detail)")
            try await tmux.keys("l", "c")

            // The cart: its rows and total, no ✕, no Pay; p and d do nothing.
            try await tmux.keys("2")
            let cart = try await tmux.waitFor("3 NFT")
            #expect(!cart.contains("✕") && !cart.contains("Pay ") && !cart.contains("d remove"), "\(cart)")
            try await tmux.keys("p", "d", "?")  // keys are taken in order: the help after them is still the cart's
            let after = try await tmux.waitFor("Keys: Cart")
            #expect(!after.contains("Bitcoin") && !after.contains("Are you sure"), "\(after)")
            try await tmux.keys("Escape")

            // The profile: no edit button, e opens no form.
            try await tmux.keys("3")
            let profile = try await tmux.waitFor(profileBefore.name)
            #expect(!profile.contains("Edit (e)"), "\(profile)")
            try await tmux.keys("e", "?")
            #expect(!(try await tmux.waitFor("Keys: Profile").contains("Save")), "no form opened")
            try await tmux.keys("Escape")

            #expect(try await api.profile().likes == profileBefore.likes, "no like changed")
            #expect(try await api.order().nfts == orderBefore.nfts, "the cart did not change")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }
    }
}
