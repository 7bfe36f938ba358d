import FakeNFTCore
import FakeNFTModels
import Foundation
import Testing
import TerminalUI
import FakeNFTSnapshots
import FakeNFTTesting
import Localization
@testable import FakeNFTApp

/// Ctrl-P: a few letters find a collection, an NFT or a user (checked against the server), the
/// one picked opens over the screen in focus and Back returns there.
@MainActor @Suite struct GoToTests {
    func type(_ text: String, _ shell: AppShell) { for c in text { _ = shell.handle(.key(.char(c))) } }

    @Test func aFewLettersGoAnywhereAndBackReturns() async throws {
        try await InProcessTestServer.with { server async throws in
            let (_, shell) = try await startedApp(server)
            let api = server.client()
            let collections = try await api.collections(page: 0, size: 100)
            let beige = try #require(collections.first { $0.name == "Beige" })
            let nft = try await api.nft(id: beige.nfts[0])
            let users = try await api.users(page: 0, size: 1000)
            let user = users[users.count / 2]
            _ = shell.handle(.key(.char("2")))  // from the cart
            let cart = shell.currentScreen
            // its rows in, so the frames behind the finder are the cart's, loaded (go-to gathers fast)
            #expect(await eventually { frame(shell, Size(width: 120, height: 40)).contains("Sorted by") })
            for size in [Size(width: 40, height: 20), Size(width: 120, height: 40)] {
                _ = shell.handle(.key(.ctrl("p")))
                #expect(await eventually { !frame(shell, size).contains("Gathering names") }, "\(size)")
                let all = frame(shell, size)
                #expect(all.contains("Go to"), "\(all)")
                #expect(all.contains("of \(collections.count + users.count)") || all.contains(" of "), "\(all)")
                type("beig", shell)
                let found = frame(shell, size)
                #expect(found.contains("Beige") && found.contains("collection, \(beige.nfts.count) NFTs"), "\(found)")
                assertSnapshot(found, named: "go-to-\(size.width)x\(size.height)")
                _ = shell.handle(.key(.enter))
                let opened = try #require(shell.currentScreen as? CollectionScreen)
                #expect(opened.model.collection.id == beige.id)
                _ = shell.handle(.key(.escape))
                #expect(shell.currentScreen === cart, "Back returns to the cart at \(size)")
            }
            // An NFT, by its name: it opens with its collection named.
            _ = shell.handle(.key(.ctrl("p")))
            #expect(await eventually { !frame(shell, Size(width: 120, height: 40)).contains("Gathering names") })
            type(nft.name, shell)
            let nfts = frame(shell, Size(width: 120, height: 40))
            #expect(nfts.contains("\(nft.name)  NFT in Beige"), "\(nfts)")
            _ = shell.handle(.key(.enter))
            let nftScreen = try #require(shell.currentScreen as? NFTScreen)
            #expect(nftScreen.model.nft.id == nft.id)
            _ = shell.handle(.key(.escape))
            // A user, by the initials of their names.
            _ = shell.handle(.key(.ctrl("p")))
            let initials = user.name.split(separator: " ").map { String($0.prefix(2)) }.joined(separator: " ")
            type(initials, shell)
            #expect(await eventually { frame(shell, Size(width: 120, height: 40)).contains(user.name) })
            // The best match is the user (or another of the same initials, as good).
            _ = shell.handle(.key(.enter))
            let userScreen = try #require(shell.currentScreen as? UserScreen)
            #expect(FuzzyMatch.match(initials, in: userScreen.user.name) != nil)
            _ = shell.handle(.key(.escape))
            #expect(shell.currentScreen === cart)
            // Typing, the terminal cursor is in the field; choosing with the arrows, on the choice
            // (where a screen reader reads).
            _ = shell.handle(.key(.ctrl("p")))
            type("e", shell)
            var buffer = Buffer(size: Size(width: 80, height: 24))
            shell.render(into: &buffer)
            #expect(buffer.cursor.map { buffer.line($0.y).contains("› e") } == true)
            _ = shell.handle(.key(.down))
            buffer = Buffer(size: Size(width: 80, height: 24))
            shell.render(into: &buffer)
            #expect(buffer.cursor == nil)
            let chosen = try #require(buffer.focus.map { buffer.line($0.y) })
            #expect(chosen.contains("  "), "the second match, with where it lives: \(chosen)")
            _ = shell.handle(.key(.escape))
            // Esc closes the finder without going anywhere.
            _ = shell.handle(.key(.ctrl("p")))
            _ = shell.handle(.key(.escape))
            #expect(shell.currentScreen === cart && !frame(shell, Size(width: 80, height: 24)).contains("Go to"))
        }
    }

    /// What was gathered is used again by an opening within a minute (a large shop's entries take
    /// seconds to gather); an opening after that gathers them again, showing the old meanwhile.
    @Test func theEntriesAreGatheredAgainOnlyOnceAMinuteHasPassed() async {
        final class Gatherings {
            var count = 0
        }
        let gatherings = Gatherings(), clock = TestClock()
        let finder = GoToFinder(
            load: {
                gatherings.count += 1
                return [GoToEntry(name: "Beige \(gatherings.count)", place: "collection", target: .screen(.cart))]
            },
            clock: AppClock(clock)
        ) { _ in .handled }
        finder.open()
        #expect(await polled { finder.panel.listing != nil })  // gathered, listed and its time kept
        #expect(gatherings.count == 1)
        clock.advance(by: .seconds(59))
        finder.open()
        await Task.yield()
        #expect(gatherings.count == 1, "within a minute: what was gathered")
        clock.advance(by: .seconds(2))
        finder.open()
        #expect(await polled { gatherings.count == 2 }, "past a minute: gathered again")
    }

    /// In Russian, at a phone's size: the finder's own words are Russian.
    @Test func theFinderSpeaksRussianOnAPhone() async throws {
        try await Language.with(.ru) {
            try await InProcessTestServer.with { server async throws in
                let (_, shell) = try await startedApp(server)
                let size = Size(width: 40, height: 20)
                _ = shell.handle(.key(.ctrl("p")))
                #expect(await eventually { !frame(shell, size).contains(tr(.finderGathering)) })
                type("beig", shell)
                let found = frame(shell, size)
                #expect(found.contains("Перейти") && found.contains("коллекция, NFT: 21"), "\(found)")
                #expect(RussianScreensTests.englishWords(found, data: "beige beig").isEmpty, "\(found)")
                assertSnapshot(found, named: "ru-go-to-40x20")
            }
        }
    }
}
