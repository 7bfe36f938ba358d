import FakeNFTCore
import Foundation
import Glibc
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// The Cart journey on the real binary, against `fakenft serve` so the test can read the profile,
    /// to the paid order in Profile's My orders.
    @Suite struct CartEndToEndTests {
        @Test func removeThroughTheDialogPayDeclinedThenPaidAndTheOrderIsKept() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let server = try await tmux.startServer()
            do {
                try await tmux.launchApp("--server \(server.absoluteString) 2> app-err.txt", waitingFor: "Cart [3]")
            } catch {
                throw E2EError("\(error)\nstderr: \((try? tmux.file("app-err.txt")) ?? "")")
            }
            try await tmux.keys("2")
            try await tmux.waitFor("3 NFT")
            try await tmux.keys("d")
            try await tmux.waitFor("Are you sure you want to remove")
            try await tmux.keys("Escape")  // cancelled once: nothing removed
            try await tmux.waitUntil("dialog closed") { !$0.contains("Are you sure") && $0.contains("3 NFT") }
            try await tmux.keys("d")
            try await tmux.waitFor("Are you sure you want to remove")
            try await tmux.keys("Left", "Enter")  // Delete
            try await tmux.waitFor("Cart [2]")
            try await tmux.waitFor("2 NFT")
            try await tmux.keys("p")
            try await tmux.waitFor("Dogecoin")
            try await tmux.keys("Right", "p")  // Dogecoin fails in the default data
            try await tmux.waitFor("Could not complete the payment")
            try await tmux.keys("Escape")
            try await tmux.waitUntil("dialog closed") { !$0.contains("Could not complete") }
            try await tmux.keys("Left", "p")  // Bitcoin succeeds
            try await tmux.waitFor("congratulations on your purchase!")
            try await tmux.keys("Enter")
            try await tmux.waitFor("Rate FakeNFT")  // a first payment asks, once its success is left
            try await tmux.keys("d")
            try await tmux.waitUntil("the catalog") { $0.contains("9 collections") && !$0.contains("Rate FakeNFT") }
            try await tmux.keys("2")
            try await tmux.waitFor("Cart is empty")
            let api = APIClient(APIConfiguration(baseURL: server))
            let order = try await api.order()
            let profile = try await api.profile()
            #expect(order.nfts.isEmpty)
            #expect(profile.nfts.count == 15, "13 owned + the 2 bought")

            // The paid order, in Profile's My orders, as the server kept it.
            let paid = try #require(try await api.paidOrders(page: 0, size: 10).first)
            #expect(paid.items.count == 2 && paid.currencyName == "BTC")
            let total = String(format: "%.2f ETH", paid.total)
            try await tmux.keys("3")
            try await tmux.waitFor("My orders")
            try await tmux.keys("Down", "Down", "Enter")
            try await tmux.waitFor("1 order, the latest first")
            try await tmux.waitFor("2 NFTs · paid with BTC")
            try await tmux.waitFor(total)
            try await tmux.keys("Enter")
            try await tmux.waitFor("Total: \(total)")
            for item in paid.items {
                try await tmux.waitFor(try await api.nft(id: item.nft).name)
                try await tmux.waitFor(String(format: "%.2f ETH", item.price))
            }
            try await tmux.keys("Escape", "Escape")
            try await tmux.waitFor("Wallet:")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
            try await tmux.type("kill %1")
        }
    }
}
