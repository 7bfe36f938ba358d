import FakeNFTCore
import Foundation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

@MainActor @Suite(.serialized) struct CatalogTests {
    @Test func catalogScreenStates() async throws {
        try await TestServer.with { server async throws in
            let context = makeContext(server)
            let model = CatalogViewModel(context: context)
            let shell = AppShell(tabs: [AppShell.Tab(title: "Catalog", root: CatalogScreen(model: model))])
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
            // Filter ignoring case and diacritics; Esc clears.
            _ = shell.handle(.key(.char("/")))
            for c in "BLÜ" { _ = shell.handle(.key(.char(c))) }
            #expect(model.visible.map(\.name) == ["Blue"])
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "catalog-filtered-120x40")
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "catalog-filtered-80x24")
            _ = shell.handle(.key(.escape))
            #expect(model.visible.count == 9)
        }
    }

    @Test func errorShowsMessageAndRetry() async throws {
        let context = makeContext(nil)
        let model = CatalogViewModel(context: context)
        let shell = AppShell(tabs: [AppShell.Tab(title: "Catalog", root: CatalogScreen(model: model))])
        await model.load()
        guard case .failed(let message) = model.state else { Issue.record("expected a failure"); return }
        #expect(message.contains("Can't reach the server"))
        assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "catalog-error-80x24")
        assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "catalog-error-120x40")
    }

    @Test func sortChoiceIsPersisted() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID().uuidString).json")
        let context = makeContext(nil, preferences: file)
        await context.start()
        CatalogViewModel(context: context).setSort(.name)
        #expect(await eventually { (try? Data(contentsOf: file)) != nil })
        #expect(await PreferencesStore(fileURL: file).current.catalog == .name)
    }

    @Test func collectionGridLikesAndCart() async throws {
        try await TestServer.with { server async throws in
            let context = makeContext(server)
            await context.start()
            #expect(await eventually { context.cart.count == 3 })
            let collections = try await context.catalog.loadCollections()
            let model = CollectionViewModel(collection: collections.first { $0.name == "Peach" }!, context: context)
            let screen = CollectionScreen(model: model)
            let shell = AppShell(tabs: [AppShell.Tab(title: "Catalog", root: screen),
                                        AppShell.Tab(title: "Cart", root: PlaceholderScreen(title: "Cart"), badge: { context.cart.count })])
            await model.load()
            #expect(model.nfts.count == 11)
            #expect(model.author.name != "21", "the gen1 author id became a user's name")
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "collection-80x24")
            _ = shell.handle(.key(.right))
            let nft = model.nfts[1]
            _ = shell.handle(.key(.char("l")))
            _ = shell.handle(.key(.char("c")))
            #expect(context.likes.contains(nft.id) && context.cart.contains(nft.id), "shown at once")
            #expect(frame(shell, Size(width: 80, height: 24)).contains("Cart [4]"))
            #expect(await eventually { context.cart.count == 4 })
            let api = server.client()
            for _ in 0..<200 {
                let (order, profile) = (try await api.order(), try await api.profile())
                if order.nfts.contains(nft.id) && profile.likes.contains(nft.id) { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(try await api.order().nfts.contains(nft.id), "sent to the server")
            let onServer = try await server.client().profile()
            #expect(onServer.likes.contains(nft.id), "sent to the server")
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "collection-liked-120x40")
            // The NFT screen shows the same state.
            _ = shell.handle(.key(.enter))
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "nft-80x24")
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "nft-120x40")
        }
    }

    @Test func likeFailureRollsBackWithAToast() async throws {
        let server = try await TestServer.start()
        let context = makeContext(server)
        let shell = FakeNFTTerminalApp.makeShell(context: context)
        await context.start()
        #expect(await eventually { context.cart.count == 3 })
        await server.stop()    // the server goes away
        context.toggleLike(NFT(id: "1", name: "April", images: [], rating: 1, description: "", price: 1, author: "", createdAt: ""))
        #expect(context.likes.contains("1"))
        #expect(await eventually { !context.likes.contains("1") }, "rolled back")
        #expect(await eventually { shell.toast?.message.contains("Could not change the like on April") == true })
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
        #expect(!document.blocks.contains { if case .paragraph(let t) = $0 { return t.contains("alert") } ; return false })
    }

    @MainActor @Test func unreachablePageShowsURLAndReason() async throws {
        let context = makeContext(nil)
        let reader = ReaderScreen(url: "http://127.0.0.1:1/terms", context: context, loader: WebPageLoader(timeout: 2))
        await reader.load()
        let surface = CellSurface(size: Size(width: 80, height: 24))
        reader.render(in: Rect(size: surface.size), surface: surface)
        #expect(surface.contains("http://127.0.0.1:1/terms"))
        #expect(surface.contains("Reason: the site cannot be reached"))
    }

    @MainActor @Test func loadedPageScrolls() async throws {
        try await TestServer.with { server async throws in
            // The FakeNFT server is a web site too: its JSON is shown as a paragraph of text.
            let reader = ReaderScreen(url: server.baseURL.absoluteString + "/api/v1/currencies", context: makeContext(nil))
            await reader.load()
            #expect(reader.state == .loaded)
            #expect(reader.lines(width: 40).count > 10)
            guard case .handled = reader.handle(.key(.pageDown)) else { Issue.record("PgDn not handled"); return }
        }
    }
}

