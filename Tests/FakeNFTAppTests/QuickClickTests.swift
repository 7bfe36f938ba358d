import FakeNFTCore
import Foundation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// A quick click (press and release read together) reaches the shell as events one after
/// another before any frame is drawn: what they open loads and shows.
@MainActor @Suite struct QuickClickTests {
    @Test(arguments: [2, 3, 4]) func clicksFasterThanFramesOpenACollectionThatLoads(_ clicks: Int) async throws {
        try await InProcessTestServer.with { server async throws in
            let (_, shell) = try await startedApp(server)
            let size = Size(width: 100, height: 30)
            let catalog = try #require((shell.currentScreen as? CatalogScreen)?.model)
            let first = try #require(catalog.visible.first)
            let lines = frame(shell, size).split(separator: "\n", omittingEmptySubsequences: false)
            let row = try #require(lines.firstIndex { $0.contains("\(first.name) (") })
            for _ in 0..<clicks { _ = shell.handle(.mouse(MouseEvent(kind: .click, point: Point(x: 20, y: row)))) }
            let collection = try #require(shell.currentScreen as? CollectionScreen, "\(shell.currentScreen.title)")
            #expect(await eventually { collection.model.nfts.value != nil })
            #expect(await eventually { collection.model.author.name != "…" })
            #expect(frame(shell, size).contains(collection.model.nfts.value?.first?.name ?? "—"))
        }
    }
}
