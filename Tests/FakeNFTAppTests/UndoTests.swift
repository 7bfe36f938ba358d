import FakeNFTCore
import FakeNFTModels
import Foundation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// `u` takes back the last like and cart changes, one by one, through the server (read back
/// over HTTP), saying each in the footer.
@MainActor @Suite struct UndoTests {
    @Test func uTakesBackLikesAndCartChangesOneByOne() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell) = try await startedApp(server)
            let api = server.client()
            let (likesBefore, cartBefore) = (try await api.profile().likes, try await api.order().nfts)
            _ = shell.handle(.key(.enter))  // the biggest collection
            let collection = try #require(shell.currentScreen as? CollectionScreen)
            #expect(await eventually { collection.model.nfts.value != nil })
            let nft = try #require(collection.model.nfts.value?.first)  // the selected cell
            _ = shell.handle(.key(.char("l")))
            _ = shell.handle(.key(.char("c")))
            #expect(try await polled { try await api.order().nfts.contains(nft.id) != cartBefore.contains(nft.id) })
            #expect(try await polled { try await api.profile().likes.contains(nft.id) != likesBefore.contains(nft.id) })

            _ = shell.handle(.key(.char("u")))  // the cart change
            let place = cartBefore.contains(nft.id) ? "back in the cart" : "out of the cart"
            #expect(context.effects.toast?.message == "Undone: \(nft.name) is \(place)")
            #expect(try await polled { try await api.order().nfts.sorted() == cartBefore.sorted() })
            _ = shell.handle(.key(.char("u")))  // the like
            let word = likesBefore.contains(nft.id) ? "liked again" : "no longer liked"
            #expect(context.effects.toast?.message == "Undone: \(nft.name) is \(word)")
            #expect(try await polled { try await api.profile().likes.sorted() == likesBefore.sorted() })
            _ = shell.handle(.key(.char("u")))
            #expect(context.effects.toast?.message == "Nothing to undo")
            #expect(context.effects.toast?.kind == .note, "nothing was done: no success tick")
            var frame = Buffer(size: Size(width: 80, height: 24))
            shell.draw(into: &frame)
            #expect(frame.text().contains("Nothing to undo") && !frame.text().contains("✓ Nothing"))
        }
    }
}
