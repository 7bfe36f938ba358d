import FakeNFTCore
import FakeNFTModels
import Foundation
import Hummingbird
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// `/` in every list: the rows shown are exactly the server's items whose name contains the
/// query (case and diacritics ignored), the bar says how many of how many, the match is
/// underlined, Enter keeps the search and Esc clears it.
@MainActor @Suite struct SearchTests {
    static let size = Size(width: 120, height: 40)
    static let query = "A"

    static func matching(_ names: [String], _ query: String = query) -> [String] {
        names.filter { Format.searchKey($0).contains(Format.searchKey(query)) }
    }

    /// Searches the current screen for `query` and checks it against `names` (the server's).
    func checkSearch(_ shell: AppShell, names: [String], what: Format.Noun, query: String = query) throws {
        _ = shell.handle(.key(.char("/")))
        for c in query { _ = shell.handle(.key(.char(c))) }
        let expected = Self.matching(names, query)
        var buffer = Buffer(size: Self.size)
        shell.render(into: &buffer)
        let screen = buffer.text()
        #expect(
            screen.contains("\(expected.count) of \(Format.count(names.count, what)), search: \(query)"),
            "\(what): \(screen)")
        for name in names where !expected.contains(name) && !names.contains(where: { $0 != name && $0.contains(name) })
        {
            #expect(!screen.contains(name), "\(name) does not match \(query)")
        }
        if let first = expected.first {
            #expect(screen.contains(String(first.prefix(12))), "\(first) is shown")
            // The match is underlined somewhere on the screen.
            #expect(buffer.cells.contains { $0.style.underline }, "the match is marked")
        }
        _ = shell.handle(.key(.enter))  // keep the search, leave the field
        #expect(frame(shell, Self.size).contains("search: \(query)"))
        _ = shell.handle(.key(.escape))  // clear it
        #expect(!frame(shell, Self.size).contains("search:"))
    }

    func names(_ server: any ServerUnderTest, _ ids: [String]) async throws -> [String] {
        var names: [String] = []
        for id in ids { names.append(try await server.get("/api/v1/nft/\(id)", as: NFT.self).name) }
        return names
    }

    /// A kept search: `n` and `N` select the next and previous match round the ends, the bar
    /// says which; the tab's number on its first screen clears it, and says so.
    @Test func nAndNWalkTheMatchesAndTheTabsNumberClears() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell) = try await startedApp(server)
            let collections = try await server.get("/api/v1/collections", as: [NFTCollection].self)
            // The catalog's order: by NFT count, then name.
            let matches = Self.matching(
                collections.sorted {
                    $0.nfts.count != $1.nfts.count ? $0.nfts.count > $1.nfts.count : $0.name < $1.name
                }
                .map(\.name), "e")
            try #require(matches.count >= 3)
            _ = shell.handle(.key(.char("/")))
            _ = shell.handle(.key(.char("e")))
            _ = shell.handle(.key(.enter))
            @MainActor func selected() -> (bar: String, row: String) {
                var buffer = Buffer(size: Self.size)
                shell.render(into: &buffer)
                let row = buffer.focus.map { buffer.line($0.y) } ?? ""
                return (buffer.text(), row)
            }
            let steps: [(key: Character?, match: Int)] = [
                (nil, 0), ("n", 1), ("n", 2), ("N", 1), ("N", 0), ("N", matches.count - 1), ("n", 0),
            ]
            for (key, match) in steps {
                if let key { _ = shell.handle(.key(.char(key))) }
                let (screen, row) = selected()
                #expect(
                    screen.contains("search: e · \(match + 1) of \(matches.count)"),
                    "\(String(describing: key)): \(screen)")
                #expect(row.contains(matches[match]), "\(String(describing: key)): \(row) is not \(matches[match])")
            }
            _ = shell.handle(.key(.char("1")))  // the tab's number, on its first screen
            let cleared = frame(shell, Self.size)
            #expect(!cleared.contains("search:"), "\(cleared)")
            #expect(context.effects.toast?.message == "Search cleared: every item shown")
            #expect(cleared.contains(Format.count(collections.count, .collections)))
        }
    }

    @Test func everyListFiltersAsYouTypeAndSaysHowMany() async throws {
        try await InProcessTestServer.with { server async throws in
            let (_, shell) = try await startedApp(server)
            let collections = try await server.get("/api/v1/collections", as: [NFTCollection].self)
            try checkSearch(shell, names: collections.map(\.name), what: .collections, query: "E")

            _ = shell.handle(.key(.enter))  // the first collection (by NFT count)
            let collection = try #require(shell.currentScreen as? CollectionScreen)
            #expect(await eventually { collection.model.nfts.value != nil })
            try checkSearch(shell, names: try await names(server, collection.model.collection.nfts), what: .nfts)

            _ = shell.handle(.key(.char("2")))  // the cart
            let cart = try #require((shell.currentScreen as? CartScreen)?.model)
            #expect(await eventually { cart.visibleItems.count == 3 })
            let order = try await server.get("/api/v1/orders/1", as: Order.self)
            try checkSearch(shell, names: try await names(server, order.nfts), what: .nfts, query: "o")

            let profile = try await server.get("/api/v1/profile/1", as: Profile.self)
            _ = shell.handle(.key(.char("3")))
            _ = shell.handle(.key(.enter))  // My NFTs
            let mine = try #require(shell.currentScreen as? MyNFTsScreen)
            #expect(await eventually { mine.model.owned.value != nil })
            try checkSearch(shell, names: try await names(server, profile.nfts), what: .nfts)
            _ = shell.handle(.key(.escape))
            _ = shell.handle(.key(.down))
            _ = shell.handle(.key(.enter))  // Favorites
            let favorites = try #require(shell.currentScreen as? FavoritesScreen)
            #expect(await eventually { favorites.model.fetched.value != nil })
            try checkSearch(shell, names: try await names(server, profile.likes), what: .nfts)
        }
    }

    @Test func statisticsAsksTheServerAndAUsersNFTsFilterToo() async throws {
        try await InProcessTestServer.with(seed: .large(users: 300, nfts: 120)) { server async throws in
            let context = makeContext(server)
            let model = StatisticsViewModel(context: context)
            let shell = AppShell(
                tabs: [AppShell.Tab(title: "Statistics", root: StatisticsScreen(model: model))],
                effects: context.effects, pictures: context.pictures)
            #expect(await eventually { model.users.count == UserService.pageSize && model.total != nil })
            let everyone = try await server.get("/api/v1/users?size=1000", as: [User].self)
            // Users not loaded yet are found too: the server searches.
            let query = "Li"
            _ = shell.handle(.key(.char("/")))
            for c in query { _ = shell.handle(.key(.char(c))) }
            let expected = everyone.filter { Format.searchKey($0.name).contains(Format.searchKey(query)) }
            #expect(expected.count > 0)
            #expect(await eventually { model.found?.value?.count == expected.count })
            #expect(Set(model.found?.value?.map(\.id) ?? []) == Set(expected.map(\.id)))
            #expect(model.serverSearches)
            let screen = frame(shell, Self.size)
            #expect(screen.contains("\(expected.count) of \(Format.count(everyone.count, .users)), search: \(query)"))
            #expect(!screen.contains("cannot search"))
            // A user's NFTs, searched in their grid.
            _ = shell.handle(.key(.enter))  // keep the search
            _ = shell.handle(.key(.enter))  // open the first user found
            let user = try #require(model.found?.value?.first)
            if !user.nfts.isEmpty {
                _ = shell.handle(.key(.down))
                _ = shell.handle(.key(.enter))
                let grid = try #require(shell.currentScreen as? UserCollectionScreen)
                #expect(await eventually { grid.model.nfts.value != nil })
                try checkSearch(shell, names: try await names(server, user.nfts), what: .nfts, query: "e")
            }
            #expect(await eventually { !model.isLoading && model.total != nil && model.found?.isLoading != true })
        }
    }

    /// A server without the `name=` extension answers every user: the search covers the pages
    /// loaded and the screen says so.
    @Test func againstAServerThatCannotSearchTheLoadedPagesAreSearched() async throws {
        let users = (0..<60).map {
            User(
                id: "\($0)", name: $0 % 3 == 0 ? "Anna \($0)" : "Boris \($0)", avatar: "", description: nil,
                website: "", nfts: [], rating: "\($0)")
        }
        let body = try JSONEncoder().encode(users)
        let router = Router()
        router.get("api/v1/users") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(data: body)))
        }
        try await withRouter(router) { url in
            let context = makeContext(nil, baseURL: url)
            let model = StatisticsViewModel(context: context)
            let shell = AppShell(
                tabs: [AppShell.Tab(title: "Statistics", root: StatisticsScreen(model: model))],
                effects: context.effects, pictures: context.pictures)
            #expect(await eventually { !model.users.isEmpty })
            _ = shell.handle(.key(.char("/")))
            for c in "anna" { _ = shell.handle(.key(.char(c))) }
            #expect(await eventually { model.found?.value != nil })
            #expect(!model.serverSearches)
            let loaded = model.users.filter { $0.name.hasPrefix("Anna") }
            #expect(model.found?.value?.map(\.id) == loaded.map(\.id))
            #expect(frame(shell, Self.size).contains("This server cannot search"))
            // Nothing in flight when the server goes (a connection accepted while it stops traps NIO).
            #expect(await eventually { !model.isLoading && model.total != nil && model.found?.isLoading != true })
        }
    }
}
