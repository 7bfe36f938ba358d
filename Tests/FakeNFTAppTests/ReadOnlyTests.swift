import FakeNFTCore
import FakeNFTTesting
import Localization
import Testing
import TerminalUI
@testable import FakeNFTApp

/// Read-only mode is the app context's, not the process's: a read-only app and a writing one on
/// the same server, side by side in one process. The read-only one offers nothing that changes
/// data and its keys change nothing (the server, read over HTTP, is as it was); the other one
/// still does.
@MainActor struct ReadOnlyTests {
    @Test func aReadOnlyAppBesideAWritingOne() async throws {
        try await TestServer.with { server async throws in
            let (readOnly, shown) = try await startedApp(server, readOnly: true)
            let (_, writing) = try await startedApp(server)
            let size = Size(width: 100, height: 30)
            let cartBefore = try await server.client().order().nfts
            for shell in [shown, writing] { _ = shell.handle(.key(.char("2"))) }
            let cart = try #require((shown.currentScreen as? CartScreen)?.model)
            #expect(await eventually { cart.visibleItems.count == cartBefore.count })
            let other = try #require((writing.currentScreen as? CartScreen)?.model)
            #expect(await eventually { other.visibleItems.count == cartBefore.count })
            let readOnlyCart = frame(shown, size), writingCart = frame(writing, size)
            #expect(!readOnlyCart.contains("✕") && !readOnlyCart.contains("Pay ") && !readOnlyCart.contains("remove"))
            #expect(readOnlyCart.split(separator: "\n")[1].hasSuffix("read-only"), "\(readOnlyCart)")
            #expect(writingCart.contains("✕") && writingCart.contains("Pay "), "\(writingCart)")
            _ = shown.handle(.key(.char("d")))
            #expect(readOnly.effects.toast?.message == tr(.readOnlyKey))
            _ = shown.handle(.key(.char("p")))
            #expect(shown.currentScreen is CartScreen, "no payment screen")
            _ = shown.handle(.key(.char("u")))
            #expect(readOnly.effects.toast?.message == tr(.readOnlyKey), "undo says why too")
            _ = writing.handle(.key(.char("p")))
            #expect(writing.currentScreen is PaymentScreen, "the writing app pays")
            #expect(try await server.client().order().nfts == cartBefore, "the server's cart is as it was")
        }
    }
}
