import FakeNFTCore
import Foundation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// Every screen at the smallest size the app accepts, the classic one, a large one and a very
/// wide one, as text snapshots: what is cut, scrolled or spread is reviewed in one place.
@MainActor @Suite(.serialized) struct EverySizeTests {
    static let sizes = [Size(width: 60, height: 16), Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 60)]

    func snapshotAtEverySize(_ shell: AppShell, _ name: String) {
        for size in Self.sizes {
            let text = frame(shell, size)
            #expect(!text.contains("Terminal too small"), "\(name) at \(size)")
            assertSnapshot(text, named: "size-\(name)-\(size.width)x\(size.height)")
        }
    }

    @Test func everyScreen() async throws {
        // Fixed image links: the edit form shows the avatar's.
        try await TestServer.with(imageLinks: .local(publicURL: URL(string: "http://images.test"))) { server async throws in
            let context = makeContext(server)
            let shell = FakeNFTTerminalApp.makeShell(context: context)
            await context.state.start()
            #expect(await eventually { context.state.cart != nil && context.state.profile != nil })
            let catalog = try #require((shell.currentScreen as? CatalogScreen)?.model)
            #expect(await eventually { catalog.collections.value != nil })
            snapshotAtEverySize(shell, "catalog")
            _ = shell.handle(.key(.enter))
            let collection = try #require(shell.currentScreen as? CollectionScreen)
            #expect(await eventually { collection.model.nfts.value != nil && collection.model.author.name != "…" })
            snapshotAtEverySize(shell, "collection")
            _ = shell.handle(.key(.enter))
            let nft = try #require(shell.currentScreen as? NFTScreen)
            #expect(await eventually { nft.model.collectionName != nil && nft.model.author.name != "…" })
            snapshotAtEverySize(shell, "nft")
            _ = shell.handle(.key(.tab))                              // on the NFT screen 1-3 choose its picture
            let cart = try #require((shell.currentScreen as? CartScreen)?.model)
            #expect(await eventually { cart.visibleItems.count == 3 })
            snapshotAtEverySize(shell, "cart")
            _ = shell.handle(.key(.char("p")))
            let payment = try #require(shell.currentScreen as? PaymentScreen)
            #expect(await eventually { payment.model.currencies.value != nil })
            snapshotAtEverySize(shell, "payment")
            _ = shell.handle(.key(.char("3")))
            snapshotAtEverySize(shell, "profile")
            _ = shell.handle(.key(.char("e")))
            snapshotAtEverySize(shell, "profile-form")
            _ = shell.handle(.key(.escape))
            _ = shell.handle(.key(.enter))
            let mine = try #require(shell.currentScreen as? MyNFTsScreen)
            #expect(await eventually { mine.model.owned.value != nil && !mine.model.authorNames.isEmpty })
            snapshotAtEverySize(shell, "my-nfts")
            _ = shell.handle(.key(.escape))
            _ = shell.handle(.key(.down))
            _ = shell.handle(.key(.enter))
            let favorites = try #require(shell.currentScreen as? FavoritesScreen)
            #expect(await eventually { favorites.model.fetched.value != nil })
            snapshotAtEverySize(shell, "favorites")
            _ = shell.handle(.key(.char("4")))
            let statistics = try #require((shell.currentScreen as? StatisticsScreen)?.model)
            #expect(await eventually { !statistics.users.isEmpty && statistics.total != nil })
            snapshotAtEverySize(shell, "statistics")
            _ = shell.handle(.key(.enter))
            snapshotAtEverySize(shell, "user")
            _ = shell.handle(.key(.down))
            _ = shell.handle(.key(.enter))
            let userNFTs = try #require(shell.currentScreen as? UserCollectionScreen)
            #expect(await eventually { userNFTs.model.nfts.value != nil })
            snapshotAtEverySize(shell, "user-nfts")
        }
    }
}
