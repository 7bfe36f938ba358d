import FakeNFTCore
import Foundation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// One test per defect of the correctness sweep (issue 13), each checking what the screen
/// shows against the server over HTTP.
@MainActor @Suite struct CorrectnessTests {
    func lines(_ shell: AppShell, _ size: Size = Size(width: 80, height: 24)) -> [String] {
        frame(shell, size).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The Cart screen's model once its three NFTs are shown (the Cart tab in focus).
    func loadedCart(_ shell: AppShell) async throws -> CartViewModel {
        let cart = try #require((shell.currentScreen as? CartScreen)?.model)
        #expect(await eventually { cart.visibleItems.count == 3 })
        return cart
    }

    /// Presses Pay and returns the payment screen once its currencies are shown.
    func openPayment(_ shell: AppShell) async throws -> PaymentScreen {
        _ = shell.handle(.key(.char("p")))
        let payment = try #require(shell.currentScreen as? PaymentScreen)
        #expect(await eventually { payment.model.currencies.value != nil })
        return payment
    }

    /// The screen's words in one line (dialogs wrap their text, boxes draw borders).
    func words(_ shell: AppShell) -> String {
        lines(shell).joined(separator: " ").replacingOccurrences(of: "│", with: " ").split(separator: " ").joined(
            separator: " ")
    }

    /// The four tabs of the app on `server`, started and showing tab `tab`.
    func app(_ server: any ServerUnderTest, tab: Int = 0) async throws -> (AppContext, AppShell) {
        let (context, shell) = try await startedApp(server)
        if tab > 0 { _ = shell.handle(.key(.char(Character(String(tab + 1))))) }
        return (context, shell)
    }

    /// Statistics › a user › NFT collection › Enter shows the NFT's own author and collection.
    @Test func theNFTScreenFromStatisticsShowsTheNFTsOwnFacts() async throws {
        try await InProcessTestServer.with { server async throws in
            let context = makeContext(server)
            let api = server.client()
            let owner = try #require(try await api.users(page: 0, size: 100).first { $0.nfts.count > 1 })
            let shell = AppShell(
                tabs: [AppShell.Tab(title: "Statistics", root: UserScreen(user: owner, context: context))],
                effects: context.effects, pictures: context.pictures)
            _ = shell.handle(.key(.down))
            _ = shell.handle(.key(.enter))
            let grid = try #require(shell.currentScreen as? UserCollectionScreen)
            #expect(await eventually { grid.model.nfts.value != nil })
            _ = shell.handle(.key(.enter))
            let screen = try #require(shell.currentScreen as? NFTScreen)
            let nft = try await api.nft(id: owner.nfts[0])
            let author = try await api.user(id: nft.author).name
            let collection = try #require(
                try await api.collections(page: 0, size: 100).first { $0.nfts.contains(nft.id) })
            #expect(await eventually { screen.model.collectionName != nil && screen.model.author.name == author })
            let text = frame(shell, Size(width: 100, height: 30))
            #expect(text.contains("Collection: \(collection.name)") && text.contains("Author: \(author)"), "\(text)")
            #expect(!text.contains("\(owner.name)'s collection"))
            #expect(
                text.contains(String(format: "%.2f ETH", nft.price))
                    && text.contains(Format.stars(nft.rating, in: Buffer(size: Size(width: 1, height: 1)))))
        }
    }

    /// `s` on an empty cart opens nothing: `s` then `3` shows the Profile tab.
    @Test func anEmptyCartOffersNoSortMenu() async throws {
        try await InProcessTestServer.with { server async throws in
            #expect(try await server.request("PUT", "/api/v1/orders/1", body: "nfts=null").status == 200)
            let (_, shell) = try await app(server, tab: 1)
            #expect(await eventually { frame(shell, Size(width: 80, height: 24)).contains("Cart is empty") })
            #expect(lines(shell).last == "? help  q quit", "no remove, sort or pay on an empty cart")
            _ = shell.handle(.key(.char("s")))
            _ = shell.handle(.key(.char("3")))
            #expect(shell.selectedTab == 2)
        }
    }

    /// Favorites: `c` changes the cart and Enter opens the NFT; My NFTs rows open; the cart
    /// toggle is a cross when the NFT is in the cart.
    @Test func drawnControlsWork() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell) = try await app(server, tab: 2)
            _ = shell.handle(.key(.down))
            _ = shell.handle(.key(.enter))
            let favorites = try #require(shell.currentScreen as? FavoritesScreen)
            #expect(await eventually { favorites.model.fetched.value != nil })
            let first = favorites.model.items[0]
            let inCart = context.state.cartIDs.contains(first.id)
            _ = shell.handle(.key(.char("c")))
            #expect(context.state.cartIDs.contains(first.id) != inCart)
            await context.state.finishWrites(within: .seconds(20))
            #expect(try await server.client().order().nfts.contains(first.id) == !inCart, "sent to the server")
            _ = shell.handle(.key(.enter))
            #expect((shell.currentScreen as? NFTScreen)?.model.nft.id == first.id)
            #expect(frame(shell, Size(width: 80, height: 24)).contains(inCart ? "[+ cart]" : "[✕ cart]"))
            _ = shell.handle(.key(.escape))
            _ = shell.handle(.key(.escape))
            _ = shell.handle(.key(.up))
            _ = shell.handle(.key(.enter))
            let mine = try #require(shell.currentScreen as? MyNFTsScreen)
            #expect(await eventually { mine.model.owned.value != nil })
            let top = mine.model.items[0]
            _ = shell.handle(.key(.enter))
            #expect((shell.currentScreen as? NFTScreen)?.model.nft.id == top.id)
        }
    }

    /// A click on a row's ✕ asks to remove that row, naming the NFT.
    @Test func eachCartRowHasARemoveButton() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell) = try await app(server, tab: 1)
            let cart = try await loadedCart(shell)
            let text = lines(shell)
            let second = cart.visibleItems[1]
            let nameRow = try #require(text.firstIndex { $0.contains(second.name) })
            let crossColumn = try #require(text[nameRow + 1].firstIndex(of: "✕")).utf16Offset(in: text[nameRow + 1])
            _ = shell.handle(.mouse(MouseEvent(kind: .click, point: Point(x: crossColumn, y: nameRow + 1))))
            let dialog = words(shell)
            #expect(dialog.contains("remove \(second.name) from the cart?"), "\(dialog)")
            _ = shell.handle(.key(.char("y")))
            #expect(!context.state.cartIDs.contains(second.id) && context.state.cartIDs.count == 2)
        }
    }

    /// Saving says so; Enter on an empty Website row says why nothing opens; a refused payment
    /// tried again says it is a new answer.
    @Test func outcomesAreNeverSilent() async throws {
        try await InProcessTestServer.with(payments: ["1": false]) { server async throws in
            #expect(try await server.request("PUT", "/api/v1/profile/1", body: "website=").status == 200)
            let (context, shell) = try await app(server, tab: 2)
            #expect(await eventually { context.state.profile?.website == "" })
            _ = shell.handle(.key(.char("e")))
            for c in " Jr" { _ = shell.handle(.key(.char(c))) }
            _ = shell.handle(.key(.ctrl("s")))
            #expect(await eventually { context.effects.toast?.message == "Saved" })
            for _ in 0..<3 { _ = shell.handle(.key(.down)) }
            _ = shell.handle(.key(.enter))
            #expect(context.effects.toast?.message.contains("no website") == true)
            _ = shell.handle(.key(.char("2")))
            _ = try await loadedCart(shell)
            _ = try await openPayment(shell)
            _ = shell.handle(.key(.char("p")))
            #expect(await eventually { words(shell).contains("was declined.") })
            _ = shell.handle(.key(.enter))  // Retry
            #expect(await eventually { words(shell).contains("declined (attempt") && words(shell).contains(" 2).") })
        }
    }

    /// A toast never hides the cart's total.
    @Test func toastsNeverHideFigures() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell) = try await app(server, tab: 1)
            let cart = try await loadedCart(shell)
            context.effects.show(
                Toast("A message long enough to cover the whole bottom of the screen, prices included"))
            let text = lines(shell)
            #expect(text.contains { $0.contains(String(format: "%.2f ETH", cart.total)) })
            #expect(text.last?.contains("A message long enough") == true)
        }
    }

    /// The success screen leaves the tab keys working, and Esc goes back to the cart.
    @Test func theSuccessScreenTrapsNothing() async throws {
        try await InProcessTestServer.with { server async throws in
            let (_, shell) = try await app(server, tab: 1)
            _ = try await loadedCart(shell)
            let payment = try await openPayment(shell)
            _ = shell.handle(.key(.char("p")))
            #expect(await eventually { payment.model.outcome == .succeeded })
            _ = shell.handle(.key(.char("4")))
            #expect(shell.selectedTab == 3)
            _ = shell.handle(.key(.char("2")))
            #expect(shell.currentScreen === payment)
            _ = shell.handle(.key(.escape))
            #expect(shell.selectedTab == 1 && shell.currentScreen is CartScreen)
        }
    }

    /// Smaller ones: the active tab's number goes to its root; sort names keep "NFT"; one
    /// plural rule; a price stays near its name on a wide terminal; a failed reload keeps the
    /// list; an author id is never shown as a name.
    @Test func smallerOnes() async throws {
        try await TestServer.with { server async throws in
            let (context, shell) = try await app(server)
            let catalog = try #require((shell.currentScreen as? CatalogScreen)?.model)
            #expect(await eventually { catalog.collections.value != nil })
            let text = frame(shell, Size(width: 80, height: 24))
            #expect(text.contains("9 collections, by NFT count"))
            _ = shell.handle(.key(.enter))
            let collection = try #require(shell.currentScreen as? CollectionScreen)
            #expect(
                !frame(shell, Size(width: 80, height: 24)).contains(
                    "Collection author: \(collection.model.collection.author)"))
            _ = shell.handle(.key(.char("1")))
            #expect(shell.currentScreen is CatalogScreen, "the tab's own number goes back to its root")
            _ = shell.handle(.key(.char("2")))
            let cart = try await loadedCart(shell)
            let wide = lines(shell, Size(width: 200, height: 40))
            let row = try #require(wide.first { $0.contains(cart.visibleItems[0].name) })
            let name = try #require(row.range(of: cart.visibleItems[0].name)).lowerBound.utf16Offset(in: row)
            let price = try #require(row.range(of: " ETH")).lowerBound.utf16Offset(in: row)
            #expect(price - name < Format.readableWidth, "price within a readable width of its name")
            #expect(wide.contains { $0.contains("3 NFTs") })
            await server.stop()
            await catalog.load()
            #expect(catalog.collections.value?.count == 9, "a failed reload keeps the list")
            // the server gone: said once at the breadcrumb line's end, not in a toast per request
            #expect(context.state.freshness == .offline)
            #expect(context.effects.toast?.message.contains("Could not reload") != true)
            #expect(frame(shell, Size(width: 80, height: 24)).contains("⚠ offline: last seen"))
        }
    }

    /// The Catalog reads every page: 259 collections are 259, not the first page.
    @Test func theCatalogReadsEveryCollection() async throws {
        try await InProcessTestServer.with(seed: .large(users: 100, nfts: 25_095)) { server async throws in
            let context = makeContext(server)
            let model = CatalogViewModel(context: context)
            await model.load()
            var all: [String] = []
            var page = 0
            while true {
                let fresh = try await server.client().collections(page: page, size: 1_000)
                all += fresh.map(\.id)
                if fresh.count < 1_000 { break }
                page += 1
            }
            #expect(all.count == 259)
            #expect(Set(model.collections.value?.map(\.id) ?? []) == Set(all))
            let shell = AppShell(
                tabs: [AppShell.Tab(title: "Catalog", root: CatalogScreen(model: model))], effects: context.effects,
                pictures: context.pictures)
            #expect(frame(shell, Size(width: 80, height: 24)).contains("259 collections"))
        }
    }

    /// At 60×16, the smallest size accepted: the form scrolls to the focused field and to Save,
    /// the help overlay scrolls to its last line, and a grid that does not fit shows a scroll bar.
    @Test func everythingIsReachableAt60x16() async throws {
        try await InProcessTestServer.with { server async throws in
            let size = Size(width: 60, height: 16)
            let (_, shell) = try await app(server, tab: 2)
            _ = shell.handle(.key(.char("e")))
            #expect(frame(shell, size).contains("↓ more"))
            for _ in 0..<3 { _ = shell.handle(.key(.tab)) }  // Avatar link
            var text = frame(shell, size)
            #expect(text.contains("Avatar link") && text.contains("↑ more"), "\(text)")
            for c in "https://a.example/x.png" { _ = shell.handle(.key(.char(c))) }
            #expect(frame(shell, size).contains("https://a.example/x.png"), "typing shows where it goes")
            _ = shell.handle(.key(.tab))  // Save
            text = frame(shell, size)
            #expect(text.contains("[ Save (Ctrl-S) ]") && text.contains("[ Cancel (Esc) ]"), "\(text)")
            _ = shell.handle(.key(.backTab))
            _ = shell.handle(.key(.backTab))
            _ = shell.handle(.key(.backTab))
            _ = shell.handle(.key(.backTab))
            #expect(frame(shell, size).contains("Name"), "and back up to the first field")
            // The help overlay scrolls to its last entry.
            _ = shell.handle(.key(.escape))
            _ = shell.handle(.key(.char("y")))  // discard the edit
            _ = shell.handle(.key(.char("?")))
            text = frame(shell, size)
            #expect(text.contains("more)") && !text.contains("Quit"))
            for _ in 0..<30 { _ = shell.handle(.key(.down)) }
            text = frame(shell, size)
            #expect(text.contains("Quit") && text.contains("(0 more)"), "\(text)")
            _ = shell.handle(.key(.escape))
            // The currency grid says it scrolls.
            _ = shell.handle(.key(.char("2")))
            _ = try await loadedCart(shell)
            _ = try await openPayment(shell)
            text = frame(shell, size)
            #expect(text.contains("┃"), "a scroll bar: more currencies below\n\(text)")
        }
    }

    /// Where `text` is on the screen (its first cell), for a click.
    func point(of text: String, in shell: AppShell) throws -> Point {
        let rows = lines(shell)
        let y = try #require(rows.firstIndex { $0.contains(text) }, "\(text) on screen")
        let x = try #require(rows[y].range(of: text)).lowerBound.utf16Offset(in: rows[y])
        return Point(x: x + 1, y: y)
    }

    func click(_ text: String, in shell: AppShell) throws {
        _ = shell.handle(.mouse(MouseEvent(kind: .click, point: try point(of: text, in: shell))))
    }

    /// With the mouse: Profile rows, Edit, Save and Cancel, Statistics rows and the sort menu's
    /// options all do what their keys do.
    @Test func everyDrawnControlIsClickable() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell) = try await app(server, tab: 2)
            try click("Favorite NFTs", in: shell)  // selects the row
            try click("Favorite NFTs", in: shell)  // opens it
            #expect(shell.currentScreen is FavoritesScreen)
            _ = shell.handle(.key(.escape))
            try click("[ Edit (e) ]", in: shell)
            #expect(frame(shell, Size(width: 80, height: 24)).contains("Edit profile"))
            try click("[ Cancel (Esc) ]", in: shell)
            #expect(!frame(shell, Size(width: 80, height: 24)).contains("Edit profile"))
            try click("[ Edit (e) ]", in: shell)
            for c in " Jr" { _ = shell.handle(.key(.char(c))) }
            try click("[ Save (Ctrl-S) ]", in: shell)
            // Saved, and the form closed: the change can reach the state first (as a live
            // update) while the form still waits for its own answer and takes no tab keys.
            #expect(
                await eventually {
                    context.state.profile?.name.hasSuffix(" Jr") == true
                        && !frame(shell, Size(width: 80, height: 24)).contains("Edit profile")
                })
            _ = shell.handle(.key(.char("4")))
            let statistics = try #require((shell.currentScreen as? StatisticsScreen)?.model)
            #expect(await eventually { statistics.users.count > 3 })
            let third = statistics.users[2].name
            try click(third, in: shell)
            try click(third, in: shell)
            #expect(shell.currentScreen.title == third)
            _ = shell.handle(.key(.escape))
            _ = shell.handle(.key(.char("s")))
            try click("By name", in: shell)
            #expect(context.state.sort.statistics == .name)
        }
    }
}
