import FakeNFTCore
import Foundation
import Localization
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// Every NFT cell of every grid (a collection, Favorites, a user's NFTs), at every size and in
/// both languages, shows what the spec names whole: the name, the stars, the price as the server
/// has it, the heart, and the cart button (as the server's order and profile have it), inside the
/// cell and above the footer; the buttons are clickable where they are drawn.
@MainActor @Suite struct GridControlsTests {
    /// The server's NFTs by name, and its order's and profile's NFT ids, over HTTP.
    struct Source {
        var nfts: [String: NFT]
        var inCart: Set<String>
        var owned: Set<String>

        init(_ server: any ServerUnderTest) async throws {
            let (_, list) = try await server.request("GET", "/api/v1/nft?page=0&size=1000")
            nfts = Dictionary(try JSONDecoder().decode([NFT].self, from: list).map { ($0.name, $0) }) { first, _ in
                first
            }
            let (_, order) = try await server.request("GET", "/api/v1/orders/1")
            inCart = Set(try JSONDecoder().decode(Order.self, from: order).nfts)
            let (_, profile) = try await server.request("GET", "/api/v1/profile/1")
            owned = Set(try JSONDecoder().decode(Profile.self, from: profile).nfts)
        }

        func mark(_ nft: NFT) -> String {
            Format.cartMark(inCart.contains(nft.id) ? .inCart : owned.contains(nft.id) ? .owned : .outOfCart)
        }
    }

    /// The text of `rect`'s row `y` in `buffer`.
    static func text(_ buffer: Buffer, row y: Int, in rect: Rect) -> String {
        (rect.x..<min(rect.maxX, buffer.size.width)).map { buffer[$0, y].text }.joined()
    }

    static func checkCells(_ buffer: Buffer, source: Source, what: String) {
        let cells = buffer.hits.compactMap { hit -> (Rect, Int)? in
            guard case .item("grid", let index) = hit.target else { return nil }
            return (hit.rect, index)
        }
        #expect(!cells.isEmpty, "no cell on \(what)")
        // Cells drawn whole; under them the next row's top is only a hint that the grid goes on.
        let height = cells.map(\.0.height).max() ?? 0
        for (rect, index) in cells where rect.height == height {
            let place = "\(what), cell \(index)"
            #expect(rect.maxY <= buffer.size.height - 1, "\(place) runs into the footer")
            let rows = (rect.y..<rect.maxY).map { text(buffer, row: $0, in: rect) }
            let all = rows.joined(separator: "\n")
            let named = source.nfts.values.filter { nft in rows.contains { $0.contains(nft.name) } }
            guard let nft = named.max(by: { $0.name.count < $1.name.count }) else {
                Issue.record("\(place) names no NFT of the server's:\n\(all)")
                continue
            }
            #expect(all.contains(Format.stars(nft.rating, in: buffer)), "\(place): stars of \(nft.name)\n\(all)")
            #expect(all.contains(Format.price(nft.price)), "\(place): price of \(nft.name)\n\(all)")
            #expect(all.contains("♥") || all.contains("♡"), "\(place): heart\n\(all)")
            let mark = source.mark(nft)
            #expect(all.contains(mark), "\(place): \(mark) for \(nft.name)\n\(all)")
            let button = buffer.hits.first { $0.target == .itemButton(area: "grid", index: index, key: .char("c")) }
            #expect(
                button.map {
                    rect.contains(Point(x: $0.rect.x, y: $0.rect.y)) && $0.rect.width == DisplayWidth.of(mark)
                } == true,
                "\(place): the cart button is not clickable whole")
        }
    }

    /// Checks the grid on screen now at every size.
    static func checkEverySize(_ shell: AppShell, source: Source, what: String) {
        for size in EverySizeTests.sizes {
            var buffer = Buffer(size: size)
            shell.render(into: &buffer)
            checkCells(buffer, source: source, what: "\(what) at \(size.width)×\(size.height) in \(Language.current)")
        }
    }

    @Test(arguments: [Language.en, .ru]) func everyCellShowsItsControlsWhole(_ language: Language) async throws {
        try await Language.with(language) {
            try await InProcessTestServer.with { server async throws in
                let source = try await Source(server)
                let (_, shell) = try await startedApp(server)
                _ = shell.handle(.key(.enter))  // the first collection
                let collection = try #require(shell.currentScreen as? CollectionScreen)
                #expect(await eventually { collection.model.nfts.value != nil })
                Self.checkEverySize(shell, source: source, what: "a collection")
                _ = shell.handle(.key(.char("3")))  // Profile › Favorites
                let profile = try #require(shell.currentScreen as? ProfileScreen)
                #expect(await eventually { profile.model.profile != nil })
                _ = shell.handle(.key(.down))
                _ = shell.handle(.key(.enter))
                let favorites = try #require(shell.currentScreen as? FavoritesScreen)
                #expect(await eventually { favorites.model.fetched.value != nil })
                Self.checkEverySize(shell, source: source, what: "Favorites")
                // A user with NFTs, found by name in Statistics, then their NFTs.
                let users: [User] = try await server.get("/api/v1/users")
                let user = try #require(users.first { !$0.nfts.isEmpty })
                _ = shell.handle(.key(.char("4")))
                let statistics = try #require((shell.currentScreen as? StatisticsScreen)?.model)
                #expect(await eventually { !statistics.users.isEmpty })
                _ = shell.handle(.key(.char("/")))
                for c in user.name { _ = shell.handle(.key(.char(c))) }
                #expect(await eventually { statistics.found?.value?.first?.id == user.id })
                _ = shell.handle(.key(.enter))  // keep the search
                _ = shell.handle(.key(.enter))  // the user
                _ = shell.handle(.key(.down))
                _ = shell.handle(.key(.enter))  // their NFTs
                let userNFTs = try #require(shell.currentScreen as? UserCollectionScreen)
                #expect(await eventually { userNFTs.model.nfts.value != nil })
                Self.checkEverySize(shell, source: source, what: "\(user.name)'s NFTs")
            }
        }
    }

    /// On a short terminal the collection's header gives its rows to the grid past the first row
    /// of cells, and every cell still shows its controls.
    @Test func theHeaderGivesWayOnAShortTerminal() async throws {
        try await InProcessTestServer.with { server async throws in
            let source = try await Source(server)
            let (_, shell) = try await startedApp(server)
            _ = shell.handle(.key(.enter))
            let collection = try #require(shell.currentScreen as? CollectionScreen)
            #expect(await eventually { collection.model.nfts.value != nil })
            let size = Size(width: 60, height: 16)
            #expect(frame(shell, size).contains(collection.model.collection.description.prefix(10)))
            _ = shell.handle(.key(.down))
            var buffer = Buffer(size: size)
            shell.render(into: &buffer)
            #expect(!buffer.text().contains(collection.model.collection.description.prefix(10)))
            Self.checkCells(buffer, source: source, what: "the collection's second row")
        }
    }

    /// The Cart at every size and in both languages: every row shown has its name, price (the
    /// server's) and a clickable ✕; the count, the total (the server's prices of the server's
    /// order) and the Pay button are on screen whole, and nothing runs into the footer.
    @Test(arguments: [Language.en, .ru]) func theCartShowsItsRowsTotalAndPayWhole(_ language: Language) async throws {
        try await Language.with(language) {
            try await InProcessTestServer.with { server async throws in
                let order: Order = try await server.get("/api/v1/orders/1")
                var items: [NFT] = []
                for id in order.nfts { items.append(try await server.get("/api/v1/nft/\(id)")) }
                let total = Format.price(items.reduce(0) { $0 + $1.price })
                let (_, shell) = try await startedApp(server)
                _ = shell.handle(.key(.char("2")))
                let cart = try #require((shell.currentScreen as? CartScreen)?.model)
                #expect(await eventually { cart.visibleItems.count == items.count })
                for size in EverySizeTests.sizes {
                    var buffer = Buffer(size: size)
                    shell.render(into: &buffer)
                    let what = "the cart at \(size.width)×\(size.height) in \(language)"
                    let text = buffer.text()
                    #expect(text.contains(total) && text.contains(Format.count(items.count, .nfts)), "\(what)\n\(text)")
                    let pay = buffer.hits.first { $0.target == .key(.char("p")) }
                    #expect(
                        pay.map {
                            $0.rect.width == DisplayWidth.of(tr(.payButton, total, "p")) && $0.rect.maxY < size.height
                        } == true, "\(what): Pay, naming the amount, whole")
                    let removes = buffer.hits.filter {
                        if case .item(CartScreen.removeArea, _) = $0.target { true } else { false }
                    }
                    let rows = buffer.hits.filter { if case .item("list", _) = $0.target { true } else { false } }
                    #expect(!rows.isEmpty && removes.count == rows.count, "\(what): a ✕ on every row shown")
                    for row in rows where row.rect.maxY < size.height - 1 {
                        let lines = (row.rect.y..<row.rect.maxY).map { Self.text(buffer, row: $0, in: row.rect) }
                            .joined()
                        #expect(
                            items.contains { lines.contains($0.name) && lines.contains(Format.price($0.price)) },
                            "\(what): a row without its name and price\n\(lines)")
                    }
                }
            }
        }
    }
}
