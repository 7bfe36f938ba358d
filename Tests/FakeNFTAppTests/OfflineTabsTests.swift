import FakeNFTCore
import Foundation
import Localization
import Logging
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// Offline, every tab reads, opened before or not: what the cart, the favourites and the wallet
/// list is read into the catalog with the first loads, and what they show is the server's.
@MainActor @Suite struct OfflineTabsTests {
    @Test func tabsNeverOpenedReadOfflineWithTheServersFigures() async throws {
        try await TestServer.with { server async throws in
            let api = server.client()
            let order = try await api.order(), profile = try await api.profile()
            var prices: [String: Double] = [:]
            for id in Set(order.nfts + profile.likes + profile.nfts) { prices[id] = try await api.nft(id: id).price }
            let (context, shell) = try await startedApp(server)
            let listed = Set(order.nfts + profile.likes + profile.nfts)
            #expect(
                await polled(within: .seconds(20)) {
                    listed.isSubset(of: await context.services.catalog.seen().nfts.map(\.id))
                }, "the cart's, favourites' and wallet's NFTs are read with the first loads")
            await server.stop()
            // The Cart, never opened: its rows and total are the server's.
            _ = shell.handle(.key(.char("2")))
            let cart = try #require((shell.currentScreen as? CartScreen)?.model)
            #expect(await eventually { cart.visibleItems.count == order.nfts.count })
            #expect(Set(cart.visibleItems.map(\.id)) == Set(order.nfts))
            let total = order.nfts.compactMap { prices[$0] }.reduce(0, +)
            #expect(abs(cart.total - total) < 0.005)
            #expect(frame(shell, Size(width: 80, height: 24)).contains(Format.price(total)))
            // The Profile's wallet: the owned NFTs' prices added up.
            _ = shell.handle(.key(.char("3")))
            let profileScreen = try #require(shell.currentScreen as? ProfileScreen)
            let worth = profile.nfts.compactMap { prices[$0] }.filter(\.isFinite).reduce(0, +)
            #expect(await eventually { profileScreen.model.wallet.value != nil })
            #expect(abs((profileScreen.model.wallet.value ?? -1) - worth) < 0.005)
            #expect(frame(shell, Size(width: 80, height: 24)).contains(Format.price(worth)))
            // Favorites: every liked NFT.
            _ = shell.handle(.key(.down))
            _ = shell.handle(.key(.enter))
            let favorites = try #require(shell.currentScreen as? FavoritesScreen)
            #expect(await eventually { favorites.model.fetched.value != nil })
            #expect(favorites.model.items.map(\.id) == profile.likes)
            // Said once the app notices (the live updates' end, or a request that fails): every
            // tab above read from what was kept, without a request of its own that could fail.
            #expect(await eventually { context.state.freshness == .offline })
            #expect(frame(shell, Size(width: 80, height: 24)).contains("⚠ offline: last seen"))
        }
    }

    /// My orders, never opened, read offline, and the Profile counts them, as the server listed
    /// them before it went away; go-to still finds the screens and the users Statistics listed;
    /// and after a start offline, Statistics by name shows each user's place and the total, as
    /// the last run saw them.
    @Test func ordersAndUsersReadOffline() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("last-seen-\(UUID())")
        defer { try? FileManager.default.removeItem(at: cache) }
        try await TestServer.with { server async throws in
            let api = server.client()
            let nft = try #require(try await api.collections(page: 0, size: 1).first?.nfts.first)
            _ = try await api.updateOrder(nfts: [nft], ifVersion: nil)
            #expect(try await api.pay(currencyID: "1").success)
            let paid = try await api.paidOrders(page: 0, size: 100)
            let rated = try await api.users(page: 0, size: 1000, sortBy: "rating,desc")
            let byName = try await api.users(page: 0, size: UserService.pageSize, sortBy: "name,asc")
            #expect(paid.count == 1 && rated.count > UserService.pageSize, "more users than one page")
            let (context, shell) = try await startedApp(server)
            #expect(await polled(within: .seconds(20)) { await context.services.paidOrders.seen() != nil })
            #expect(await polled(within: .seconds(20)) { await context.services.users.seen().firstPages.count == 2 })
            _ = shell.handle(.key(.char("4")))  // Statistics, read whole once
            let statistics = try #require((shell.currentScreen as? StatisticsScreen)?.model)
            #expect(await eventually { statistics.total == rated.count })
            let store = LastSeenStore(directory: cache, server: "test", account: nil)
            await FakeNFTTerminalApp.keep(context.services, in: store, logger: Logger(label: "test"))
            await server.stop()
            _ = shell.handle(.key(.char("3")))
            let size = Size(width: 80, height: 24)
            #expect(
                await eventually { frame(shell, size).contains("My orders (\(paid.count))") }, "\(frame(shell, size))")
            _ = shell.handle(.key(.ctrl("p")))
            #expect(await eventually { !frame(shell, size).contains("Gathering names") })
            for c in "orders" { _ = shell.handle(.key(.char(c))) }
            _ = shell.handle(.key(.enter))
            let orders = try #require(shell.currentScreen as? OrdersScreen)
            #expect(await eventually { orders.model.orders.value?.map(\.id) == paid.map(\.id) })
            #expect(frame(shell, size).contains(Format.price(paid[0].total)))
            // Go-to offline: the users Statistics lists, and a tab by its name.
            let entries = await GoToIndex.load(context.services)
            let users = Set(entries.compactMap { if case .user(let user) = $0.target { user.id } else { nil } })
            #expect(users.isSuperset(of: rated.map(\.id)))
            _ = shell.handle(.key(.ctrl("p")))
            #expect(await eventually { !frame(shell, size).contains("Gathering names") })
            for c in "statistics" { _ = shell.handle(.key(.char(c))) }
            _ = shell.handle(.key(.enter))
            #expect(shell.currentScreen is StatisticsScreen)
            _ = shell.handle(.key(.ctrl("p")))
            #expect(await eventually { !frame(shell, size).contains("Gathering names") })
            for c in "profile" { _ = shell.handle(.key(.char(c))) }
            _ = shell.handle(.key(.enter))
            #expect(shell.currentScreen === orders, "the Profile tab as it was left: My orders")
            context.state.stop()
            // A start with the server gone: Statistics by name, places and total as last seen.
            let offline = makeContext(nil, baseURL: server.baseURL)
            await offline.state.start(remembering: store.load())
            let byNameOffline = StatisticsViewModel(context: offline)
            byNameOffline.setSort(.name)
            await byNameOffline.loadNextPage()
            await byNameOffline.loadPlaces()
            #expect(byNameOffline.users.map(\.id) == byName.map(\.id))
            #expect(byNameOffline.total == rated.count)
            for (index, user) in byNameOffline.users.enumerated() {
                let place = try #require(rated.firstIndex { $0.id == user.id }) + 1
                #expect(byNameOffline.place(of: user, at: index) == String(place), "\(user.name)")
            }
            offline.state.stop()
        }
    }

    /// A server never reached: offline, and nothing "last seen" to speak of.
    @Test func aServerNeverReachedIsOfflineWithoutALastSeen() async throws {
        let context = makeContext(nil)
        await context.state.start()
        #expect(await eventually { context.state.freshness == .offline })
        #expect(context.state.status == "⚠ offline")
        await Language.with(.ru) { #expect(context.state.status == "⚠ нет связи") }
        context.state.stop()
    }
}
