import FakeNFTCore
import FakeNFTModels
import Foundation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// Space marks several NFTs; `c`, `l` and the cart's removal act on all of them at once (read
/// back from the server over HTTP), the footer saying how many are marked.
@MainActor @Suite struct MarksTests {
    let size = Size(width: 120, height: 40)

    @Test func spaceMarksAndCAndLActOnAllMarked() async throws {
        try await InProcessTestServer.with { server async throws in
            let clock = TestClock()
            let (_, shell) = try await startedApp(server, clock: clock)
            let api = server.client()
            let cartBefore = try await api.order().nfts, likesBefore = try await api.profile().likes
            _ = shell.handle(.key(.enter))  // the biggest collection
            let collection = try #require(shell.currentScreen as? CollectionScreen)
            #expect(await eventually { collection.model.nfts.value != nil })
            let nfts = try #require(collection.model.nfts.value)
            let two = Array(nfts.filter { !cartBefore.contains($0.id) && !likesBefore.contains($0.id) }.prefix(2))
            try #require(two.count == 2 && nfts.prefix(2).map(\.id) == two.map(\.id), "the first two are free")
            _ = frame(shell, size)  // as the app draws before each key: the grid's layout
            _ = shell.handle(.key(.char(" ")))
            _ = frame(shell, size)
            _ = shell.handle(.key(.char(" ")))  // the second, the selection having moved on
            let marked = frame(shell, size)
            #expect(marked.contains("2 marked: clear"), "\(marked)")
            #expect(marked.contains("✓ \(two[0].name)") && marked.contains("✓ \(two[1].name)"), "\(marked)")
            _ = shell.handle(.key(.char("c")))
            #expect(frame(shell, size).contains("✓ Put in the cart: 2 NFTs"), "the batch says what it did")
            shell.effects.expireToast()
            #expect(
                frame(shell, size).contains("✓ Put in the cart: 2 NFTs"), "a toast lasts while its time has not passed")
            clock.advance(by: .seconds(60))
            shell.effects.expireToast()  // the footer under it again
            _ = shell.handle(.key(.char(" ")))
            _ = shell.handle(.key(.shiftLeft))  // marks the third, then the second on the way back
            _ = shell.handle(.key(.shiftLeft))
            let extended = frame(shell, size)
            #expect(extended.contains("3 marked: clear") || extended.contains("2 marked: clear"), "\(extended)")
            _ = shell.handle(.key(.escape))  // clears the marks, stays
            #expect(!frame(shell, size).contains("marked"))
            #expect(shell.currentScreen === collection)
            #expect(try await polled { Set(try await api.order().nfts) == Set(cartBefore + two.map(\.id)) })
            // `l` on two marked: both liked.
            _ = shell.handle(.key(.home))
            _ = shell.handle(.key(.char(" ")))
            _ = shell.handle(.key(.char(" ")))
            _ = shell.handle(.key(.char("l")))
            #expect(frame(shell, size).contains("✓ Liked: 2 NFTs"))
            #expect(try await polled { Set(try await api.profile().likes) == Set(likesBefore + two.map(\.id)) })

            // The cart: the two marked, one question naming how many and their total, one answer.
            _ = shell.handle(.key(.char("2")))
            let cart = try #require((shell.currentScreen as? CartScreen)?.model)
            #expect(await eventually { cart.visibleItems.count == cartBefore.count + 2 })
            let rows = cart.visibleItems
            _ = frame(shell, size)
            _ = shell.handle(.key(.char(" ")))
            _ = frame(shell, size)
            _ = shell.handle(.key(.char(" ")))
            _ = shell.handle(.key(.char("d")))
            let total = rows.prefix(2).map(\.price).reduce(0, +)
            let question = frame(shell, size)
            #expect(question.contains("Remove 2 NFTs from the cart, \(Format.price(total)) in all?"), "\(question)")
            _ = shell.handle(.key(.char("y")))  // Delete
            #expect(frame(shell, size).contains("✓ Removed from the cart: 2 NFTs"))
            let left = Set(cartBefore + two.map(\.id)).subtracting(rows.prefix(2).map(\.id))
            #expect(try await polled { Set(try await api.order().nfts) == left })
        }
    }
}
