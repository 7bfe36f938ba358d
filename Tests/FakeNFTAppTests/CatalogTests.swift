import Localization
import FakeNFTCore
import Foundation
import Testing
import TerminalUI
import FakeNFTSnapshots
import FakeNFTTesting
@testable import FakeNFTApp

@MainActor @Suite struct CatalogTests {
    @Test func catalogScreenStates() async throws {
        try await InProcessTestServer.with { server async throws in
            let context = makeContext(server)
            let model = CatalogViewModel(context: context)
            let shell = AppShell(
                tabs: [AppShell.Tab(title: "Catalog", root: CatalogScreen(model: model))], effects: context.effects,
                pictures: context.pictures)
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "catalog-loading-80x24")
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "catalog-loading-120x40")
            await model.load()
            #expect(model.visible.map(\.nfts.count) == [21, 19, 14, 11, 8, 7, 7, 5, 3], "default: by NFT count")
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "catalog-loaded-80x24")
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "catalog-loaded-120x40")
            // Sort by name through the menu.
            _ = shell.handle(.key(.char("s")))
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "catalog-sort-menu-80x24")
            _ = shell.handle(.key(.char("1")))
            #expect(model.visible.first?.name == "Beige" && model.visible.last?.name == "Yellow")
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "catalog-sorted-80x24")
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "catalog-sorted-120x40")
            // Search ignoring case and diacritics; Esc clears.
            _ = shell.handle(.key(.char("/")))
            for c in "BLÜ" { _ = shell.handle(.key(.char(c))) }
            #expect(frame(shell, Size(width: 80, height: 24)).contains("1 of 9 collections, search: BLÜ"))
            #expect(
                frame(shell, Size(width: 80, height: 24)).contains("Blue (5)")
                    && !frame(shell, Size(width: 80, height: 24)).contains("Beige"))
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "catalog-filtered-120x40")
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "catalog-filtered-80x24")
            _ = shell.handle(.key(.escape))
            #expect(frame(shell, Size(width: 80, height: 24)).contains("9 collections, by name"))
        }
    }

    @Test func errorShowsMessageAndRetry() async throws {
        let context = makeContext(nil)
        let model = CatalogViewModel(context: context)
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "Catalog", root: CatalogScreen(model: model))], effects: context.effects,
            pictures: context.pictures)
        await model.load()
        guard case .failed(let failure) = model.collections else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure == .offline("http://127.0.0.1:1"), "typed: offline, not just a message")
        #expect(failure.userMessage.contains("Can't reach the server"))
        assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "catalog-error-80x24")
        assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "catalog-error-120x40")
    }

    @Test func sortChoiceIsPersisted() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID().uuidString).json")
        let context = makeContext(nil, preferences: file)
        await context.state.start()
        CatalogViewModel(context: context).setSort(.name)
        await context.state.finishWrites(within: .seconds(20))
        #expect((try? Data(contentsOf: file)) != nil)
        #expect(await PreferencesStore(fileURL: file).current.catalog == .name)
    }

    @Test func collectionGridLikesAndCart() async throws {
        try await InProcessTestServer.with { server async throws in
            let clock = TestClock()
            let context = makeContext(server, clock: clock)
            await context.state.start()
            #expect(await eventually { context.state.cartIDs.count == 3 })
            let collections = try await context.services.catalog.loadCollections()
            let model = CollectionViewModel(collection: collections.first { $0.name == "Peach" }!, context: context)
            let screen = CollectionScreen(model: model)
            let shell = AppShell(
                tabs: [
                    AppShell.Tab(title: "Catalog", root: screen),
                    AppShell.Tab(
                        title: "Cart", root: PlaceholderScreen(title: "Cart"), badge: { context.state.cartIDs.count }),
                ], effects: context.effects, pictures: context.pictures)
            // Before the author is looked up, `a` says their page is loading, not that there is none.
            _ = shell.handle(.key(.char("a")))
            #expect(context.effects.toast?.message == tr(.authorLoading))
            clock.advance(by: .seconds(60))
            context.effects.expireToast()  // not in the snapshots below
            await model.load()
            #expect(model.nfts.value?.count == 11)
            #expect(model.author.name != "21", "the gen1 author id became a user's name")
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "collection-80x24")
            _ = shell.handle(.key(.right))
            let nft = try #require(model.nfts.value?[1])
            _ = shell.handle(.key(.char("l")))
            _ = shell.handle(.key(.char("c")))
            #expect(context.state.likes.contains(nft.id) && context.state.cartIDs.contains(nft.id), "shown at once")
            #expect(frame(shell, Size(width: 80, height: 24)).contains("Cart [4]"))
            #expect(await eventually { context.state.cartIDs.count == 4 })
            await context.state.finishWrites(within: .seconds(20))
            let api = server.client()
            #expect(try await api.order().nfts.contains(nft.id), "sent to the server")
            let onServer = try await server.client().profile()
            #expect(onServer.likes.contains(nft.id), "sent to the server")
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "collection-liked-120x40")
            // The NFT screen shows the same state, and the NFT's own author and collection.
            _ = shell.handle(.key(.enter))
            let nftScreen = try #require(shell.currentScreen as? NFTScreen)
            let author = try await api.user(id: nft.author).name
            #expect(
                await eventually { nftScreen.model.author.name == author }, "the NFT's author, not the collection's")
            let text = frame(shell, Size(width: 80, height: 24))
            #expect(text.contains("Author: \(author)") && text.contains("Collection: Peach"))
            #expect(text.contains("Link: fakenft nft \(nft.id)"), "the screen's own link")
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "nft-80x24")
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "nft-120x40")
        }
    }

    /// The server gone: the like stays, counted in the status line, no toast (offline changes
    /// are kept: KeptChangesTests and OfflineEndToEndTests send them).
    @Test func aLikeWithoutTheServerIsKeptAndCounted() async throws {
        let server = try await TestServer.start()
        let context = makeContext(server)
        _ = FakeNFTTerminalApp.makeShell(context: context)
        await context.state.start()
        #expect(await eventually { context.state.cartIDs.count == 3 })
        await server.stop()  // the server goes away
        context.state.toggleLike(Self.april(id: "1"))
        #expect(context.state.likes.contains("1"))
        #expect(await eventually { context.state.waiting == 1 })
        #expect(context.state.likes.contains("1") && context.state.status == tr(.statusOfflineWaiting, 1))
        #expect(context.effects.toast == nil, "said once, by the status line")
    }

    /// A like the server refuses (an NFT it does not know) rolls back with a toast.
    @Test func aLikeTheServerRefusesRollsBackWithAToast() async throws {
        try await InProcessTestServer.with { server async throws in
            let context = makeContext(server)
            _ = FakeNFTTerminalApp.makeShell(context: context)
            await context.state.start()
            #expect(await eventually { context.state.profile != nil })
            context.state.toggleLike(Self.april(id: "999999"))
            #expect(context.state.likes.contains("999999"))
            #expect(await eventually { !context.state.likes.contains("999999") }, "rolled back")
            #expect(
                await eventually {
                    context.effects.toast?.message.contains("Could not change the like on April") == true
                })
            #expect(context.state.waiting == 0)
        }
    }

    static func april(id: String) -> NFT {
        NFT(id: id, name: "April", images: [], rating: 1, description: "", price: 1, author: "", createdAt: "")
    }
}

@Suite struct ReaderTests {
    @Test func htmlBecomesReadableText() {
        let html = """
            <html><head><title>The  Page</title><style>body{}</style><script>alert(1)</script></head>
            <body><h1>Welcome</h1><p>First <b>bold</b> paragraph with a <a href="/terms">link</a>.</p>
            <ul><li>One</li><li>Two <a href="https://example.com/x">x</a></li></ul>
            <div>Broken <p>markup<div>still fine</body>
            """
        let document = ReadableDocument.parse(html: Data(html.utf8), baseURL: URL(string: "https://site.example/a/")!)
        #expect(document.title == "The Page")
        #expect(document.blocks.first == .heading(level: 1, text: "Welcome"))
        #expect(document.blocks.contains(.paragraph("First bold paragraph with a link [1].")))
        #expect(document.blocks.contains(.listItem("One")) && document.blocks.contains(.listItem("Two x [2]")))
        #expect(document.blocks.contains(.paragraph("still fine")))
        #expect(document.links.map(\.url) == ["https://site.example/terms", "https://example.com/x"])
        #expect(
            !document.blocks.contains {
                if case .paragraph(let t) = $0 { return t.contains("alert") }
                return false
            })
    }

    @MainActor @Test func unreachablePageShowsURLAndReason() async throws {
        let model = ReaderViewModel(
            url: "http://127.0.0.1:1/terms", effects: .toastsOnly(), loader: WebPageLoader(timeout: 2))
        await model.load()
        var buffer = Buffer(size: Size(width: 80, height: 24))
        ReaderScreen(model: model).render(in: Rect(size: buffer.size), buffer: &buffer)
        #expect(buffer.contains("http://127.0.0.1:1/terms"))
        #expect(buffer.contains("The site cannot be reached."))
    }

    @MainActor @Test func loadedPageScrolls() async throws {
        try await TestServer.with { server async throws in
            // The FakeNFT server is a web site too: its JSON is shown as a paragraph of text.
            let model = ReaderViewModel(
                url: server.baseURL.absoluteString + "/api/v1/currencies", effects: .toastsOnly())
            await model.load()
            #expect(model.page.value != nil)
            #expect(model.lines(width: 40).count > 10)
            guard case .handled = ReaderScreen(model: model).route(.key(.pageDown), after: DrawnFrame()) else {
                Issue.record("PgDn not handled")
                return
            }
        }
    }
}
