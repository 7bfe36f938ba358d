import FakeNFTCore
import Foundation
import Localization
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// The second sweep of what users see: each defect found, held to its fix on the real screens
/// against the in-process server (snapshots show the rest at every size).
@MainActor @Suite struct SweepTests {
    func buffer(_ shell: AppShell, _ size: Size = Size(width: 80, height: 24)) -> Buffer {
        var buffer = Buffer(size: size)
        shell.render(into: &buffer)
        return buffer
    }

    /// The NFT screen of the first collection's first NFT.
    func openNFT(_ shell: AppShell) async throws -> NFTScreen {
        _ = shell.handle(.key(.enter))
        let collection = try #require(shell.currentScreen as? CollectionScreen)
        #expect(await eventually { collection.model.nfts.value != nil })
        _ = shell.handle(.key(.enter))
        return try #require(shell.currentScreen as? NFTScreen)
    }

    /// A key means one thing per screen: the digits switch tabs from the NFT screen too, and its
    /// help lists them once, as tabs.
    @Test func digitsSwitchTabsFromTheNFTScreen() async throws {
        try await InProcessTestServer.with { server async throws in
            let (_, shell) = try await startedApp(server)
            _ = try await openNFT(shell)
            _ = shell.handle(.key(.char("?")))
            let help = buffer(shell, Size(width: 120, height: 40)).text()
            #expect(
                help.components(separatedBy: "Catalog tab").count == 2 && !help.contains("First picture"), "\(help)")
            _ = shell.handle(.key(.escape))
            _ = shell.handle(.key(.char("2")))
            #expect(shell.selectedTab == 1 && shell.currentScreen is CartScreen)
        }
    }

    /// An NFT the profile owns says so instead of offering the cart, and `c` on it is refused
    /// with a toast; the server's order stays as it was.
    @Test func anOwnedNFTCannotGoInTheCart() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell) = try await startedApp(server)
            let profile: Profile = try await server.get("/api/v1/profile/1")
            _ = shell.handle(.key(.char("3")))
            let screen = try #require(shell.currentScreen as? ProfileScreen)
            #expect(await eventually { screen.model.profile != nil })
            _ = shell.handle(.key(.enter))  // My NFTs
            let mine = try #require(shell.currentScreen as? MyNFTsScreen)
            #expect(await eventually { mine.model.owned.value != nil })
            _ = buffer(shell)  // the list as the user sees it, then its first NFT
            _ = shell.handle(.key(.enter))
            let nft = try #require((shell.currentScreen as? NFTScreen)?.model.nft)
            #expect(profile.nfts.contains(nft.id))
            #expect(buffer(shell).contains(tr(.cartMarkOwned)))
            _ = shell.handle(.key(.char("c")))
            #expect(context.state.cartIDs == ["93", "94", "95"])
            #expect(context.effects.toast?.message == tr(.alreadyOwned, nft.name))
            // The palette says so too, instead of offering "Add to cart" that `c` refuses.
            _ = shell.handle(.key(.char(":")))
            for character in "cart" { _ = shell.handle(.key(.char(character))) }
            let palette = buffer(shell).text()
            #expect(palette.contains("You already own"), "\(palette)")
            _ = shell.handle(.key(.escape))
            let order: Order = try await server.get("/api/v1/orders/1")
            #expect(order.nfts == ["93", "94", "95"])
        }
    }

    /// A toast takes the whole footer line: no hint shows beside it, cut or whole.
    @Test func aToastTakesTheWholeHintLine() async throws {
        try await InProcessTestServer.with { server async throws in
            let (context, shell) = try await startedApp(server)
            context.effects.show(Toast("Saved"))
            let footer = buffer(shell).line(23)
            #expect(footer.contains("Saved") && !footer.contains("open") && !footer.contains("help"), "\(footer)")
        }
    }

    /// Help wraps its entries in their column at every size, never cutting one, nor the hint at
    /// its foot (to close, to scroll and how much more), in either language.
    @Test(arguments: [Language.en, .ru]) func helpWrapsInsteadOfCutting(_ language: Language) async throws {
        try await Language.with(language) {
            try await InProcessTestServer.with { server async throws in
                let (_, shell) = try await startedApp(server)
                _ = shell.handle(.key(.char("3")))
                _ = shell.handle(.key(.char("?")))
                for size in EverySizeTests.sizes {
                    var seen = ""
                    for _ in 0..<40 {  // every line, scrolled through: what is inside the overlay's box
                        for line in buffer(shell, size).text().split(separator: "\n") {
                            guard let left = line.firstIndex(of: "│"), let right = line.lastIndex(of: "│"),
                                left < right
                            else { continue }
                            seen += line[left...right] + "\n"
                        }
                        _ = shell.handle(.key(.down))
                    }
                    #expect(!seen.contains("…"), "cut at \(size):\n\(seen)")
                    for _ in 0..<40 { _ = shell.handle(.key(.up)) }
                }
            }
        }
    }

    /// An error screen's footer offers what its Retry button does; Statistics offers no sort
    /// or search where there is nothing to sort or search.
    @Test func errorScreensOfferRetryAndNothingElse() async throws {
        let context = makeContext(nil)  // a server that is not there
        let statistics = StatisticsScreen(model: StatisticsViewModel(context: context))
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "Statistics", root: statistics)], effects: context.effects,
            pictures: context.pictures)
        #expect(await eventually { statistics.model.failure != nil })
        let footer = buffer(shell).line(23)
        #expect(footer.contains("r retry") && !footer.contains("sort") && !footer.contains("search"), "\(footer)")
    }

    /// The launch screen says what it waits for: the embedded server, or the server given.
    @Test func theLaunchScreenSaysWhatItWaitsFor() {
        let clock = TestClock()
        let scene = LaunchScene(server: URL(string: "http://127.0.0.1:48201"), clock: AppClock(clock))
        clock.advance(by: LaunchScene.delay)
        var buffer = Buffer(size: Size(width: 80, height: 24))
        scene.render(into: &buffer)
        #expect(buffer.contains("Connecting to 127.0.0.1:48201…") && !buffer.contains("Starting"))
    }

    /// Configuration problems can be read before the tabs: each one, wrapped, not cut.
    @Test func configurationProblemsAreShownWhole() {
        let problem =
            """
            /home/u/.config/fakenft/config.toml line 3: theme 'purple' is not auto, dark, light or mono; using the \
            default
            """
        let scene = ConfigProblemsScene(problems: [problem, "line 4: unknown key 'colour'"])
        var buffer = Buffer(size: Size(width: 60, height: 16))
        scene.render(into: &buffer)
        let text = buffer.text().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(
            separator: " ")
        #expect(
            text.contains("purple") && text.contains("using the default") && text.contains("colour")
                && !text.contains("…"))
        #expect(!scene.isFinished)
        _ = scene.handle(.key(.enter))
        #expect(scene.isFinished)
    }

    /// Onboarding: no "back" on its first page; Skip is a button as well as a key.
    @Test func onboardingOffersSkipAndNoBackOnItsFirstPage() {
        let scene = OnboardingScene()
        var buffer = Buffer(size: Size(width: 80, height: 24))
        scene.render(into: &buffer)
        #expect(!buffer.line(23).contains(tr(.hintPrevious)))
        let skip = buffer.hits.first { $0.target == .key(.char("s")) }
        #expect(skip != nil, "Skip is a button")
        _ = scene.handle(.mouse(MouseEvent(kind: .click, point: Point(x: skip?.rect.x ?? 0, y: skip?.rect.y ?? 0))))
        #expect(scene.isFinished)
    }

    /// The reader keeps a table's cells apart and preformatted lines as they are, opens a
    /// numbered link (one that is not the web only says so), and says why a site cannot be reached.
    @Test func theReaderKeepsTablesAndPreformattedTextAndOpensLinks() async throws {
        let site = try HostileServer.start(.hostileWebsites)
        defer { site.stop() }
        let url = site.baseURL.absoluteString + "/page.html"
        let model = ReaderViewModel(url: url, effects: .toastsOnly())
        await model.load()
        let document = try #require(model.page.value)
        #expect(document.blocks.contains(.paragraph("A | B")))
        #expect(document.blocks.contains(.preformatted("line one\n  line two")))
        #expect(document.links.map(\.url) == ["file:///etc/passwd", url], "no script link")
        let screen = ReaderScreen(model: model)
        var buffer = Buffer(size: Size(width: 80, height: 24))
        screen.render(in: Rect(size: buffer.size), buffer: &buffer)
        #expect(buffer.contains("A | B") && buffer.contains("  line two"))
        let drawn = DrawnFrame(buffer)
        _ = screen.route(.key(.char("[")), after: drawn)  // the last link: this page
        guard case .push(let next) = screen.route(.key(.enter), after: drawn) else {
            Issue.record("the link did not open")
            return
        }
        let opened = try #require(next as? ReaderScreen)
        #expect(opened.model.url == url)
        _ = screen.route(.key(.char("]")), after: drawn)  // round to the first: a file, not the web
        guard case .push(let file) = screen.route(.key(.enter), after: drawn) else {
            Issue.record("the file link did not open")
            return
        }
        let refused = try #require((file as? ReaderScreen)?.model)
        await refused.load()
        #expect(refused.page.failure == .notWeb)
        #expect(WebPageError.unreachable("NIOConnectionError(dnsAError: ...)").message.contains(tr(.reasonNoSuchHost)))
        #expect(WebPageError.unreachable("connection refused (errno 111)").message.contains(tr(.reasonRefused)))
    }
}
