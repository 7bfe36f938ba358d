import FakeNFTCore
import Foundation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// `:`: every action of the screen in focus and of the shell, from the same key maps as `?`,
/// with its key; typing filters, Enter runs it, one that cannot act now says why.
@MainActor @Suite struct PaletteTests {
    let size = Size(width: 120, height: 40)

    func type(_ text: String, _ shell: AppShell) { for c in text { _ = shell.handle(.key(.char(c))) } }

    @Test func everyActionByNameWithItsKeyAndEnterRunsIt() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell) = try await startedApp(server)
            _ = shell.handle(.key(.char(":")))
            let all = frame(shell, size)
            // The catalog's actions and the shell's, each with its keys, as the help lists them.
            let screenLayers = shell.currentScreen.layers
            for entry in screenLayers.flatMap(\.commands) {
                #expect(all.contains(entry.text) || !all.contains("Commands"), "\(entry.text)")
            }
            #expect(all.contains("Commands") && all.contains("Sort (by name, by NFT count)"), "\(all)")
            #expect(all.contains("Back  — nothing to act on here now"), "Back at a tab's first screen: \(all)")
            // Typing filters; Enter runs the action: the sort menu opens.
            type("sort", shell)
            let sorting = frame(shell, size)
            // The best match first: the sort (other names hold s, o, r, t in order too).
            let rows = sorting.split(separator: "\n").filter { $0.contains("│") }
            #expect(rows.count > 2 && rows[2].contains("Sort (by name, by NFT count)"), "\(sorting)")
            _ = shell.handle(.key(.enter))
            #expect(frame(shell, size).contains("By NFT count"), "the sort menu is open")
            _ = shell.handle(.key(.escape))
            // A shell action runs too: a tab by name.
            _ = shell.handle(.key(.char(":")))
            type("cart tab", shell)
            _ = shell.handle(.key(.enter))
            #expect(shell.currentScreen is CartScreen)
            // One that cannot act now says why, and nothing happens.
            _ = shell.handle(.key(.char(":")))
            type("back", shell)
            _ = shell.handle(.key(.enter))
            #expect(shell.currentScreen is CartScreen)
            #expect(context.effects.toast?.message == "Back: nothing to act on here now")
            #expect(context.effects.toast?.kind == .error)
        }
    }

    /// A key that cannot act now says why in the footer, and the palette lists the same reason:
    /// nothing selected (a search with no match), offline (paying needs the server).
    @Test func aKeyThatCannotActSaysWhy() async throws {
        try await TestServer.with { server async throws in
            let (context, shell) = try await startedApp(server)
            _ = shell.handle(.key(.char("/")))
            type("zzzz", shell)
            _ = shell.handle(.key(.enter))
            _ = shell.handle(.key(.enter))
            #expect(context.effects.toast?.message == "nothing selected", "Enter where the search found no collection")
            #expect(shell.currentScreen is CatalogScreen)
            _ = shell.handle(.key(.escape))  // the search
            _ = shell.handle(.key(.enter))  // the biggest collection
            let collection = try #require(shell.currentScreen as? CollectionScreen)
            #expect(await eventually { collection.model.nfts.value != nil })
            _ = shell.handle(.key(.char("/")))
            type("zzzz", shell)
            _ = shell.handle(.key(.enter))
            _ = shell.handle(.key(.char("c")))
            #expect(context.effects.toast?.message == "nothing selected")
            _ = shell.handle(.key(.char(":")))
            type("cart", shell)
            #expect(frame(shell, size).contains("— nothing selected"), "\(frame(shell, size))")
            _ = shell.handle(.key(.escape))
            _ = shell.handle(.key(.escape))  // the search
            // Offline, Pay says why.
            _ = shell.handle(.key(.char("2")))
            let cart = try #require((shell.currentScreen as? CartScreen)?.model)
            #expect(await eventually { !cart.visibleItems.isEmpty })
            await server.stop()
            _ = shell.handle(.key(.char("r")))  // a reload that finds the server gone
            #expect(await eventually { context.state.freshness == .offline })
            _ = shell.handle(.key(.char("p")))
            #expect(context.effects.toast?.message == "offline: it needs the server")
            #expect(shell.currentScreen is CartScreen, "no payment screen offline")
        }
    }
}
