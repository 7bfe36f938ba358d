import FakeNFTCore
import Foundation
import Localization
import Testing
import TerminalUI
import FakeNFTSnapshots
import FakeNFTTesting
@testable import FakeNFTApp

@MainActor @Suite struct CartTests {
    /// A shell with the real Catalog and Cart tabs on a test server, showing the Cart.
    func makeApp(_ server: any ServerUnderTest) async -> (AppContext, AppShell, CartViewModel) {
        let context = makeContext(server)
        let model = CartViewModel(context: context)
        let shell = AppShell(
            tabs: [
                AppShell.Tab(title: "Catalog", root: PlaceholderScreen(title: "Catalog")),
                AppShell.Tab(title: "Cart", root: CartScreen(model: model), badge: { context.state.cartIDs.count }),
            ], effects: context.effects, pictures: context.pictures)
        await context.state.start()
        #expect(await eventually { context.state.cartIDs.count == 3 }, "the cart loaded")
        _ = shell.handle(.key(.char("2")))  // the screen follows the cart's NFTs as the service publishes them
        #expect(await eventually { model.visibleItems.count == 3 }, "its NFTs shown")
        return (context, shell, model)
    }

    @Test func orderListSortRemoveAndEmpty() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell, model) = await makeApp(server)
            #expect(model.visibleItems.map(\.name) == ["Rosie", "Stella", "Toast"], "default: by name")
            // The total is the server's prices of the server's order, read over HTTP.
            let order: Order = try await server.get("/api/v1/orders/1")
            var serverTotal = 0.0
            for id in order.nfts { serverTotal += (try await server.get("/api/v1/nft/\(id)") as NFT).price }
            #expect(order.nfts.count == 3 && abs(model.total - serverTotal) < 0.001, "\(model.total) vs \(serverTotal)")
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "cart-loaded-80x24")
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "cart-loaded-120x40")
            let first = model.visibleItems[0]  // selected
            _ = shell.handle(.key(.char("s")))
            _ = shell.handle(.key(.char("1")))
            let prices = model.visibleItems.map(\.price)
            #expect(prices == prices.sorted())
            #expect(model.visibleItems.firstIndex(of: first) != 0, "the sort moved the selected NFT")
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "cart-sorted-by-price-80x24")
            // The selected NFT stays selected after the sort: removing asks about it. Cancel once, then confirm.
            _ = shell.handle(.key(.char("d")))
            #expect(frame(shell, Size(width: 80, height: 24)).contains(first.name))
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "cart-remove-dialog-80x24")
            _ = shell.handle(.key(.escape))
            #expect(context.state.cartIDs.count == 3)
            _ = shell.handle(.key(.delete))
            _ = shell.handle(.key(.left))
            _ = shell.handle(.key(.enter))
            #expect(
                !context.state.cartIDs.contains(first.id)
                    && frame(shell, Size(width: 80, height: 24)).contains("Cart [2]"), "removed at once")
            await context.state.finishWrites(within: .seconds(20))
            let api = server.client()
            #expect(try await api.order().nfts.count == 2)
            for _ in 0..<2 {
                _ = shell.handle(.key(.char("d")))
                _ = shell.handle(.key(.char("y")))
            }
            #expect(await eventually { context.state.cartIDs.isEmpty })
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "cart-empty-80x24")
        }
    }

    @Test func paymentDeclinedThenSucceeds() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell, _) = await makeApp(server)
            let bought = context.state.cartIDs
            _ = shell.handle(.key(.char("p")))
            let payment = try #require(shell.currentScreen as? PaymentScreen)
            #expect(await eventually { payment.model.currencies.value != nil })
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "payment-currencies-80x24")
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "payment-currencies-120x40")
            _ = shell.handle(.key(.right))  // Dogecoin: declined in the gen1 data
            _ = shell.handle(.key(.char("p")))
            #expect(
                await eventually {
                    if case .failed = payment.model.outcome { return true }
                    return false
                })
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "payment-failed-80x24")
            #expect(context.state.cartIDs == bought)
            _ = shell.handle(.key(.escape))  // Cancel
            _ = shell.handle(.key(.left))  // Bitcoin
            _ = shell.handle(.key(.enter))
            // the emptied order reaches the cart's badge on the main actor's next turn
            #expect(await eventually { payment.model.outcome == .succeeded && context.state.cartIDs.isEmpty })
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "payment-success-80x24")
            #expect(context.state.cartIDs.isEmpty)
            let profile = try await server.client().profile()
            #expect(Set(bought).isSubset(of: profile.nfts))
            _ = shell.handle(.key(.enter))
            #expect(shell.selectedTab == 0 && shell.tabs[1].stack.depth == 1, "back to the catalog")
        }
    }

    /// A slow server keeps the payment running while Pay is pressed again: the presses are
    /// ignored, one payment is made, and the cart is bought once. (A second of latency: the test's
    /// presses and its second payment must come while the first is in flight, and beside the whole
    /// suite starting they once took over 200 ms.)
    @Test func repeatedPayPressesSendOnePayment() async throws {
        try await TestServer.with(latency: 1000) { server async throws in
            let (context, shell, _) = await makeApp(server)
            _ = shell.handle(.key(.char("p")))
            let payment = try #require(shell.currentScreen as? PaymentScreen)
            #expect(await eventually { payment.model.currencies.value != nil })
            _ = shell.handle(.key(.char("p")))  // Bitcoin
            #expect(await eventually { payment.model.outcome == .paying })
            for _ in 0..<5 {
                _ = shell.handle(.key(.char("p")))
                _ = shell.handle(.key(.enter))
            }
            #expect(payment.model.outcome == .paying && frame(shell, Size(width: 80, height: 24)).contains("Paying…"))
            await #expect(throws: PaymentInProgress.self) { try await context.services.order.pay(currencyID: "1") }
            #expect(await eventually { payment.model.outcome == .succeeded })
            let profile = try await server.client().profile()
            #expect(profile.nfts.count == 16, "13 owned + 3 bought, once")
        }
    }

    /// `p` while the currencies load says they are loading, not that nothing is selected.
    @Test func payWhileTheCurrenciesLoadSaysSo() async throws {
        try await TestServer.with(latency: 300) { server async throws in
            let (context, shell, _) = await makeApp(server)
            _ = shell.handle(.key(.char("p")))
            let payment = try #require(shell.currentScreen as? PaymentScreen)
            payment.didAppear()
            #expect(payment.model.currencies.isLoading)
            _ = shell.handle(.key(.char("p")))
            #expect(
                context.effects.toast?.message == tr(.loadingCurrencies), "\(String(describing: context.effects.toast))"
            )
            #expect(await eventually { payment.model.currencies.value != nil })
        }
    }

    @Test func failureDialogRetriesTheSameCurrency() async throws {
        try await InProcessTestServer.with(payments: ["1": false]) { server async throws in
            let (_, shell, _) = await makeApp(server)
            _ = shell.handle(.key(.char("p")))
            let payment = try #require(shell.currentScreen as? PaymentScreen)
            #expect(await eventually { payment.model.currencies.value != nil })
            _ = shell.handle(.key(.char("p")))  // Bitcoin, made to fail
            #expect(
                await eventually {
                    if case .failed = payment.model.outcome { return true }
                    return false
                })
            _ = shell.handle(.key(.enter))  // Retry has focus
            #expect(
                await eventually {
                    if case .failed = payment.model.outcome { return true }
                    return false
                })
            // `r`, the retry key everywhere else, retries here too (it did nothing in the dialog).
            _ = shell.handle(.key(.char("r")))
            let closed: Bool = if case .failed = payment.model.outcome { false } else { true }
            #expect(closed, "the dialog closed and the payment is sent again")
            #expect(
                await eventually {
                    if case .failed = payment.model.outcome { return true }
                    return false
                })
            #expect(try await server.client().order().nfts.count == 3)
        }
    }
}
