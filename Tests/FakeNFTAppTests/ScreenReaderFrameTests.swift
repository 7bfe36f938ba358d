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
            let size = Size(width: 120, height: 40)
            for _ in 0..<2 {
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

    @Test func aSpinnerIsStillOnlyInAFrameForAScreenReader() {
        let moment = Date(timeIntervalSinceReferenceDate: 0.35)
        #expect(Spinner.frame(in: Buffer(size: Size(width: 1, height: 1), forScreenReader: true), at: moment) == "…")
        #expect(Spinner.frame(in: Buffer(size: Size(width: 1, height: 1)), at: moment) == Spinner.frames[3])
    }
}
