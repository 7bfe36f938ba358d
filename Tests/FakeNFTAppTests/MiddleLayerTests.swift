import FakeNFTCore
import Localization
import Foundation
import Observation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// The app's middle layer: state that redraws itself, screens that own their tasks, and keys
/// routed through layers whose footer and help show exactly what works.
@MainActor @Suite struct MiddleLayerTests {
    /// Whether a frame drawn under observation is told about the next change of what it read.
    final class RedrawFlag: @unchecked Sendable { var raised = false }

    func observedFrame(_ shell: AppShell, flag: RedrawFlag) {
        flag.raised = false
        withObservationTracking {
            _ = frame(shell, Size(width: 80, height: 24))
        } onChange: {
            flag.raised = true
        }
    }

    /// What the app loop relies on instead of `invalidate()`: an answer arriving, a like from
    /// elsewhere, or a toast asks for the next frame by itself.
    @Test func aFrameIsToldWhenWhatItShowedChanges() async throws {
        try await InProcessTestServer.with { server async throws in
            let context = makeContext(server)
            let model = CatalogViewModel(context: context)
            let shell = AppShell(
                tabs: [AppShell.Tab(title: "Catalog", root: CatalogScreen(model: model))], effects: context.effects,
                pictures: context.pictures)
            let flag = RedrawFlag()
            observedFrame(shell, flag: flag)
            await model.load()
            #expect(flag.raised, "the collections arrived")
            observedFrame(shell, flag: flag)
            context.effects.show(Toast("hello"))
            #expect(flag.raised, "a toast")
            observedFrame(shell, flag: flag)
            context.state.updateSort { $0.catalog = .name }
            #expect(flag.raised, "the sort changed elsewhere")
            observedFrame(shell, flag: flag)
            _ = model.visible
            #expect(!flag.raised, "reading changes nothing")
        }
    }

    /// A screen closed while it loads: its task is cancelled and writes nothing afterwards.
    @Test func aClosedScreenStopsItsLoads() async throws {
        try await TestServer.with(latency: 300) { server async throws in
            let context = makeContext(server)
            let collections = try await server.client().collections(page: 0, size: 100)
            let shell = AppShell(
                tabs: [AppShell.Tab(title: "Catalog", root: PlaceholderScreen(title: "Catalog"))],
                effects: context.effects, pictures: context.pictures)
            let screen = CollectionScreen(model: CollectionViewModel(collection: collections[0], context: context))
            shell.tabs[0].stack.push(screen)
            #expect(screen.tasks.count == 1 && screen.model.nfts.isLoading)
            _ = shell.handle(.key(.escape))
            #expect(screen.tasks.count == 0, "cancelled when popped")
            // A request sent after it, with the same latency, is answered after the load's answer was due.
            _ = try await server.client().collections(page: 0, size: 1)
            #expect(screen.model.nfts.isLoading, "the late answer was not stored")
        }
    }

    /// The footer lists the keys that work now, generated from the same maps that dispatch them.
    @Test func theFooterAndTheHelpFollowTheActiveLayers() async throws {
        try await InProcessTestServer.with { server async throws in
            let context = makeContext(server)
            let model = CartViewModel(context: context)
            let screen = CartScreen(model: model)
            let shell = AppShell(
                tabs: [AppShell.Tab(title: "Cart", root: screen)], effects: context.effects, pictures: context.pictures)
            await context.state.start()
            #expect(await eventually { model.visibleItems.count == 3 })
            let footer = {
                frame(shell, Size(width: 80, height: 24)).split(separator: "\n").last.map(String.init) ?? ""
            }
            #expect(footer() == "d remove  s sort  p pay  / search  ? help  q quit")
            _ = shell.handle(.key(.char("d")))
            #expect(footer() == "←→ choose  Enter press  Esc cancel  F1 help")
            _ = shell.handle(.key(.char("2")))  // taken by the dialog, not the shell
            #expect(shell.selectedTab == 0 && frame(shell, Size(width: 80, height: 24)).contains("Remove"))
            _ = shell.handle(.key(.function(1)))  // F1 works over a dialog
            let help = frame(shell, Size(width: 80, height: 24))
            #expect(
                help.contains("Move between the buttons") && help.contains("Ctrl-C") && !help.contains("Statistics tab")
            )
            _ = shell.handle(.key(.escape))  // closes the help
            _ = shell.handle(.key(.escape))  // cancels the dialog
            #expect(footer() == "d remove  s sort  p pay  / search  ? help  q quit")
            _ = shell.handle(.key(.char("?")))
            let fullHelp = frame(shell, Size(width: 100, height: 40))  // tall enough for the whole help
            // Every key that works now (Esc clears a search only while there is one).
            for entry in CartScreen.keys.helpEntries + ListState.keys.helpEntries where entry.text != "Clear the search"
            {
                #expect(fullHelp.contains(entry.text), "\(entry.text)")
            }
            #expect(!fullHelp.contains("Clear the search"))
            _ = shell.handle(.key(.escape))
            #expect(!shell.handle(.key(.ctrl("c"))), "Ctrl-C quits")
        }
    }

    /// Count and total are the rows on screen, after every removal (they stayed at the first
    /// values before: `2 NFT, 19.92 ETH` over rows worth 11.59).
    @Test func countAndTotalFollowEveryRemoval() async throws {
        try await InProcessTestServer.with { server async throws in
            let context = makeContext(server)
            let model = CartViewModel(context: context)
            let shell = AppShell(
                tabs: [AppShell.Tab(title: "Cart", root: CartScreen(model: model))], effects: context.effects,
                pictures: context.pictures)
            await context.state.start()
            #expect(await eventually { model.visibleItems.count == 3 })
            let api = server.client()
            for remaining in [2, 1] {
                _ = shell.handle(.key(.char("d")))
                _ = shell.handle(.key(.char("y")))
                let text = frame(shell, Size(width: 80, height: 24))
                var prices: [Double] = []
                for id in context.state.cartIDs { prices.append(try await api.nft(id: id).price) }
                #expect(prices.count == remaining)
                #expect(text.contains("\(remaining) NFT"), "\(text)")
                #expect(text.contains(String(format: "%.2f ETH", prices.reduce(0, +))), "\(text)")
                for id in context.state.cartIDs {
                    let name = try await api.nft(id: id).name
                    #expect(
                        text.contains(name),
                        "\(id) \(name) \(model.visibleItems.map { "\($0.id) \($0.name)" }) \(context.state.cartIDs)")
                }
            }
        }
    }

    /// A cart the server cannot give is an error with Retry, never "Cart is empty"; `r` loads it.
    @Test func anUnreachableCartIsAnErrorWithRetry() async throws {
        let context = makeContext(nil)
        let model = CartViewModel(context: context)
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "Cart", root: CartScreen(model: model))], effects: context.effects,
            pictures: context.pictures)
        await context.state.start()
        #expect(await eventually { context.state.cartFailure != nil })
        let text = frame(shell, Size(width: 80, height: 24))
        #expect(
            text.contains("Could not load the cart") && text.contains("Retry: r") && !text.contains("Cart is empty"))
        #expect(!text.contains("d remove") && !text.contains("p pay"), "no keys that cannot work")
    }

    /// Clicks land on what the frame drew there: a row of a scrolled list with three-line rows,
    /// a second click opens it, buttons are their keys, dialog buttons answer the dialog.
    @Test func clicksReachWhatWasDrawnThere() async throws {
        try await InProcessTestServer.with { server async throws in
            let context = makeContext(server)
            let model = CatalogViewModel(context: context)
            let shell = AppShell(
                tabs: [
                    AppShell.Tab(title: "Catalog", root: CatalogScreen(model: model)),
                    AppShell.Tab(title: "Cart", root: CartScreen(model: CartViewModel(context: context))),
                ],
                effects: context.effects, pictures: context.pictures)
            await context.state.start()
            await model.load()
            let size = Size(width: 80, height: 16)
            for _ in 0..<6 { _ = shell.handle(.key(.down)) }  // scrolls: 3 rows of 3 lines fit
            let text = frame(shell, size)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let visible = model.visible
            // Click on the first row shown (scrolled away from the top).
            let target = try #require(
                visible.indices.first { i in
                    lines.contains { $0.contains("\(visible[i].name) (\(visible[i].nfts.count))") } && i > 0
                })
            let row = try #require(
                lines.firstIndex { $0.contains("\(visible[target].name) (\(visible[target].nfts.count))") })
            _ = shell.handle(.mouse(MouseEvent(kind: .click, point: Point(x: 20, y: row))))
            _ = frame(shell, size)
            // the row's second line: same row
            _ = shell.handle(.mouse(MouseEvent(kind: .click, point: Point(x: 20, y: row + 1))))
            #expect(shell.currentScreen.title == visible[target].name, "the clicked row opened")
            // The cart: Pay is a button, and a removal dialog answers a click on its buttons.
            _ = shell.handle(.key(.char("2")))
            #expect(await eventually { frame(shell, Size(width: 80, height: 24)).contains("3 NFT") })
            _ = shell.handle(.key(.char("d")))
            let dialog = frame(shell, Size(width: 80, height: 24)).split(
                separator: "\n", omittingEmptySubsequences: false
            ).map(String.init)
            let buttons = try #require(dialog.firstIndex { $0.contains("[ Delete ]") })
            let column = try #require(dialog[buttons].range(of: "[ Delete ]")).lowerBound.utf16Offset(
                in: dialog[buttons])
            _ = shell.handle(.mouse(MouseEvent(kind: .click, point: Point(x: column + 2, y: buttons))))
            #expect(context.state.cartIDs.count == 2, "Delete clicked")
            let cart = frame(shell, Size(width: 80, height: 24)).split(
                separator: "\n", omittingEmptySubsequences: false
            ).map(String.init)
            let total = try #require((shell.currentScreen as? CartScreen)?.model.total)
            let pay = tr(.payButton, Format.price(total), "p")
            let payRow = try #require(cart.firstIndex { $0.contains(pay) })
            let payColumn = try #require(cart[payRow].range(of: pay)).lowerBound.utf16Offset(
                in: cart[payRow])
            _ = shell.handle(.mouse(MouseEvent(kind: .click, point: Point(x: payColumn + 3, y: payRow))))
            #expect(shell.currentScreen is PaymentScreen, "Pay clicked")
        }
    }
}
