import FakeNFTCore
import Foundation
import Testing
import TerminalUI
import FakeNFTSnapshots
import FakeNFTTesting
@testable import FakeNFTApp

@MainActor @Suite struct StatisticsTests {
    @Test func ratingUserAndCollection() async throws {
        try await InProcessTestServer.with { server async throws in
            let context = makeContext(server)
            await context.state.start()
            let model = StatisticsViewModel(context: context)
            let shell = AppShell(
                tabs: [
                    AppShell.Tab(title: "Statistics", root: StatisticsScreen(model: model)),
                    AppShell.Tab(
                        title: "Cart", root: PlaceholderScreen(title: "Cart"), badge: { context.state.cartIDs.count }),
                ], effects: context.effects, pictures: context.pictures)
            #expect(
                await eventually {
                    !model.users.isEmpty && !model.isLoading && model.total != nil && context.state.cartIDs.count == 3
                })
            #expect(
                model.users.map(\.ratingValue) == model.users.map(\.ratingValue).sorted(by: >), "default: by rating")
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "rating-80x24")
            _ = shell.handle(.key(.char("s")))
            _ = shell.handle(.key(.char("1")))  // by name
            #expect(await eventually { !model.users.isEmpty && !model.isLoading })
            #expect(model.users.map(\.name) == model.users.map(\.name).sorted())
            assertSnapshot(frame(shell, Size(width: 120, height: 40)), named: "rating-by-name-120x40")
            // The first user with NFTs, then their collection.
            let index = try #require(model.users.firstIndex { !$0.nfts.isEmpty })
            for _ in 0..<index { _ = shell.handle(.key(.down)) }
            let user = model.users[index]
            _ = shell.handle(.key(.enter))
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "user-80x24")
            _ = shell.handle(.key(.down))
            _ = shell.handle(.key(.enter))
            let collection = try #require(shell.currentScreen as? UserCollectionScreen)
            #expect(await eventually { collection.model.nfts.value != nil })
            #expect(collection.model.nfts.value?.map(\.id) == user.nfts)
            assertSnapshot(frame(shell, Size(width: 80, height: 24)), named: "user-collection-80x24")
            _ = shell.handle(.key(.char("c")))
            #expect(frame(shell, Size(width: 80, height: 24)).contains("Cart [4]"))
        }
    }

    /// Not inside `TestServer.with`: there, `eventually`'s condition closure is never called
    /// (it returns true at once, seen with Swift 6.3.1), so the pages never get time to load.
    @Test func pagesLoadAsTheListScrolls() async throws {
        let server = try await TestServer.start(seed: .large(users: 1_000, nfts: 95))
        let context = makeContext(server)
        let model = StatisticsViewModel(context: context)
        let screen = StatisticsScreen(model: model)
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "Statistics", root: screen)], effects: context.effects,
            pictures: context.pictures)
        #expect(await eventually { model.users.count == UserService.pageSize })
        #expect(frame(shell, Size(width: 80, height: 24)).contains(model.users[0].name))
        // Page down again and again: each time the list nears its end the next page arrives, never a duplicate.
        for _ in 0..<400 where model.hasMore {
            _ = shell.handle(.key(.pageDown))
            _ = frame(shell, Size(width: 80, height: 24))
            #expect(await eventually { !model.isLoading }, "the page arrived")
        }
        #expect(model.users.count == 1_000 && !model.hasMore)
        #expect(Set(model.users.map(\.id)).count == 1_000)
        #expect(frame(shell, Size(width: 80, height: 24)).contains("1000 in all"))
        await server.stop()
    }

    /// `End` goes to the last user, loading what it needs; the header shows the total, and
    /// under "by name" the place column is still the place in the rating (checked against the
    /// server's rating order).
    @Test func endGoesToTheLastUserAndPlacesAreRatingPlaces() async throws {
        let server = try await TestServer.start(seed: .large(users: 1_000, nfts: 95))
        let context = makeContext(server)
        await context.state.start()
        let model = StatisticsViewModel(context: context)
        let screen = StatisticsScreen(model: model)
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "Statistics", root: screen)], effects: context.effects,
            pictures: context.pictures)
        #expect(await eventually { model.users.count == UserService.pageSize && model.total == 1_000 })
        #expect(frame(shell, Size(width: 80, height: 24)).contains("Users by rating, 1000 in all"))
        _ = shell.handle(.key(.end))
        #expect(await eventually { model.users.count == 1_000 })
        _ = frame(shell, Size(width: 80, height: 24))
        #expect(screen.pane.selected?.id == model.users[999].id, "the last user, with no key pressed since")
        let last = frame(shell, Size(width: 80, height: 24))
        #expect(last.contains(model.users[999].name) && last.contains(" 1000 "))
        // Everything loaded, g and G move within the key (and so in the frame it brings).
        _ = shell.handle(.key(.char("g")))
        #expect(screen.pane.selection.selected == 0)
        _ = shell.handle(.key(.char("G")))
        #expect(screen.pane.selection.selected == 999)
        #expect(frame(shell, Size(width: 80, height: 24)).contains(model.users[999].name))
        // By name: each row's place is the user's place in the server's rating order.
        _ = shell.handle(.key(.char("s")))
        _ = shell.handle(.key(.char("1")))
        #expect(await eventually { model.users.count == UserService.pageSize && !model.isLoading })
        let ranking = try await server.client().users(page: 0, size: 1_000, sortBy: "rating,desc")
        let text = frame(shell, Size(width: 100, height: 30))
        for user in model.users.prefix(5) {
            let place = try #require(ranking.firstIndex { $0.id == user.id }) + 1
            #expect(
                text.split(separator: "\n").contains { $0.contains(user.name) && $0.contains(" \(place) ") },
                "\(user.name) is #\(place)")
        }
        await server.stop()
    }
}
