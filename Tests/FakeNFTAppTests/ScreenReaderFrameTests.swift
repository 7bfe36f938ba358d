import FakeNFTCore
import Foundation
import Localization
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// `--accessible` is the frame's (``Buffer/forScreenReader``), not the process's: one app draws
/// a collection for a screen reader and plainly, one frame after the other, and each frame is
/// as it was asked for (checked against the server's NFTs over HTTP).
@MainActor @Suite struct ScreenReaderFrameTests {
    @Test func aFrameForAScreenReaderSaysInWordsWhatAPlainOneDraws() async throws {
        try await InProcessTestServer.with { server async throws in
            let (_, list) = try await server.request("GET", "/api/v1/nft?page=0&size=1000")
            let nfts = try JSONDecoder().decode([NFT].self, from: list)
            let (_, shell) = try await startedApp(server)
            _ = shell.handle(.key(.enter))
            let collection = try #require(shell.currentScreen as? CollectionScreen)
            #expect(await eventually { collection.model.nfts.value != nil })
            // twice at each size (the second frame after the first's pictures were asked for);
            // at 80×24 a cell's picture is two rows: its name takes the cell's width, never cut
            for size in [
                Size(width: 80, height: 24), Size(width: 80, height: 24), Size(width: 120, height: 40),
                Size(width: 120, height: 40),
            ] {
                var spoken = Buffer(size: size, forScreenReader: true)
                shell.render(into: &spoken)
                var plain = Buffer(size: size)
                shell.render(into: &plain)
                let words = spoken.text(), glyphs = plain.text()
                let shown = nfts.filter { glyphs.contains($0.name) }
                #expect(!shown.isEmpty, "the collection names the server's NFTs:\n\(glyphs)")
                for nft in shown {
                    #expect(words.contains(tr(.ratingOutOfFive, min(5, max(0, nft.rating)))), "\(nft.name)")
                    // Named once more than in the plain frame: its picture, by name (wrapped at its width).
                    #expect(
                        words.components(separatedBy: nft.name).count == glyphs.components(separatedBy: nft.name).count
                            + 1,
                        "\(nft.name)'s picture by name")
                    #expect(glyphs.contains(Format.stars(nft.rating, in: plain)), "\(nft.name)'s stars")
                }
                #expect(words.contains(tr(.pictureNamed, "")), "\(words)")
                #expect(!words.contains("★") && !words.contains("☆") && !words.contains("░"), "\(words)")
                #expect(glyphs.contains("★") && glyphs.contains("░"), "\(glyphs)")
            }
        }
    }

    /// The Cart's rows (and My NFTs', drawn by the same view) say each rating whole, in both
    /// languages and at the smallest and a large size: "1 of 5" is wider than five stars.
    @Test(arguments: [Language.en, .ru], [Size(width: 40, height: 20), Size(width: 200, height: 60)])
    func theCartsRowsSayEachRatingWhole(language: Language, size: Size) async throws {
        try await Language.with(language) {
            try await InProcessTestServer.with { server async throws in
                let (_, order) = try await server.request("GET", "/api/v1/orders/1")
                let ids = try JSONDecoder().decode(Order.self, from: order).nfts
                let (_, list) = try await server.request("GET", "/api/v1/nft?page=0&size=1000")
                let inCart = try JSONDecoder().decode([NFT].self, from: list).filter { ids.contains($0.id) }
                let (context, shell) = try await startedApp(server)
                _ = shell.handle(.key(.char("2")))
                let cart = try #require((shell.currentScreen as? CartScreen)?.model)
                #expect(await eventually { cart.visibleItems.count == ids.count && context.state.cart != nil })
                var spoken = Buffer(size: size, forScreenReader: true)
                shell.render(into: &spoken)
                let words = spoken.text()
                #expect(inCart.count == 3)
                for nft in inCart where words.contains(nft.name) {
                    #expect(words.contains(tr(.ratingOutOfFive, min(5, max(0, nft.rating)))), "\(nft.name):\n\(words)")
                }
                #expect(inCart.contains { words.contains($0.name) }, "\(words)")
            }
        }
    }

    @Test func aSpinnerIsStillOnlyInAFrameForAScreenReader() {
        let moment = Date(timeIntervalSinceReferenceDate: 0.35)
        #expect(Spinner.frame(in: Buffer(size: Size(width: 1, height: 1), forScreenReader: true), at: moment) == "…")
        #expect(Spinner.frame(in: Buffer(size: Size(width: 1, height: 1)), at: moment) == Spinner.frames[3])
    }
}
