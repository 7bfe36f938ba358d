import FakeNFTCore
import Foundation
import Localization
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
