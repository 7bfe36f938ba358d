import FakeNFTCore
import FakeNFTSnapshots
import FakeNFTTesting
import Foundation
import Localization
import Testing
import TerminalUI
@testable import FakeNFTApp

/// What usage events the app records as it is used (``UsageRecorder``), and the rate-the-app
/// prompt (``RatingPrompt``) on screen: its words whole at every size in both languages, its keys,
/// its answers, never over a form being edited.
@MainActor @Suite struct UsageRecordingTests {
    /// The events a recorder heard.
    @MainActor final class Heard {
        var events: [UsageEvent] = []
    }

    static func recorder(_ server: any ServerUnderTest) -> (UsageRecorder, Heard) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("usage-\(UUID())")
        let usage = UsageRecorder(
            reporter: UsageReporter(api: server.client(), server: "test", folder: folder), delay: .seconds(3600))
        let heard = Heard()
        usage.heard = { heard.events.append($0) }
        return (usage, heard)
    }

    /// The first event waits `delay` by the recorder's clock for others, then they go to the server
    /// together; nothing is sent before.
    @Test func theFirstEventWaitsItsDelayByTheClockThenAllAreSent() async throws {
        try await TestServer.with { server async throws in
            let clock = TestClock()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("usage-\(UUID())")
            let usage = UsageRecorder(
                reporter: UsageReporter(api: server.client(), server: "test", folder: folder), delay: .seconds(30),
                clock: AppClock(clock))
            usage.click(.sort)
            usage.click(.search)
            #expect(await polled { clock.wakeTimes == [.seconds(30)] }, "one wait, for the first")
            clock.advance(by: .seconds(29))
            #expect(try await Self.clicks(server) == 0, "nothing sent before")
            clock.advance(by: .seconds(1))
            #expect(try await polled { try await Self.clicks(server) == 2 }, "both, together")
        }
    }

    /// A quit while the server never answers ends at the finish's limit, not at the request's
    /// time-out: the batch on its way is given back and kept for a later start.
    @Test(.timeLimit(.minutes(1))) func aFinishAgainstAServerThatNeverAnswersEndsAtItsLimit() async throws {
        let server = try HostileServer.start(.hanging)
        defer { server.stop() }
        let clock = TestClock()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("usage-\(UUID())")
        let api = APIClient(APIConfiguration(baseURL: server.baseURL), clock: AppClock(clock))
        let usage = UsageRecorder(
            reporter: UsageReporter(api: api, server: "test", folder: folder), delay: .seconds(30),
            clock: AppClock(clock))
        usage.click(.sort)
        let finishing = Task { await usage.finish(within: .seconds(1)) }
        #expect(await polled { server.requestsRead == 1 }, "the batch is on its way")
        #expect(await polled { clock.wakeTimes == [.seconds(1), .seconds(10)] }, "the limit and the time-out")
        clock.advance(by: .seconds(1))
        await finishing.value
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        #expect(!kept.isEmpty, "kept for a later start")
    }

    /// The clicks on the catalog the server has counted (its `/metrics`).
    static func clicks(_ server: TestServer) async throws -> Int {
        let text = String(decoding: try await server.request("GET", "/metrics").body, as: UTF8.self)
        let line = #"fakenft_app_events_total{event="click",screen="catalog"} "#
        return text.split(separator: "\n").first { $0.hasPrefix(line) }.flatMap { Int($0.dropFirst(line.count)) } ?? 0
    }

    /// A walk through every screen: each screen a frame showed is opened, then closed before the
    /// next one opens; the actions are clicks with their screen; items are the ids shown.
    @Test func aWalkThroughEveryScreenIsRecordedAsItWasShown() async throws {
        try await InProcessTestServer.with { server async throws in
            let (usage, heard) = Self.recorder(server)
            try await UsageRecorder.$current.withValue(usage) {
                try await walkEveryScreen(server) { shell, _ in _ = frame(shell, Size(width: 80, height: 24)) }
            }
            let events = heard.events
            #expect(events.allSatisfy { $0.problem == nil })
            let opened = events.filter { $0.event == .open }.map(\.screen)
            for screen: UsageEvent.Screen in [
                .catalog, .help, .collection, .nft, .cart, .payment, .profile, .edit, .myNFTs, .favorites,
                .statistics, .user, .userCollection, .success, .orders, .order,
            ] {
                #expect(opened.contains(screen), "\(screen) opened: \(opened)")
            }
            // screens open one at a time (a panel over one), each closed before the next opens
            var open: [UsageEvent.Screen] = []
            for event in events where event.event != .click {
                if event.event == .open {
                    #expect(open.count < 2, "\(open) then \(event.screen)")
                    open.append(event.screen)
                } else {
                    #expect(open.last == event.screen, "closing \(event.screen) over \(open)")
                    open.removeLast()
                }
            }
            let nfts = try await server.client().nfts(page: 0, size: 200).map(\.id)
            let nftOpens = events.filter { $0.event == .open && $0.screen == .nft }
            #expect(!nftOpens.isEmpty && nftOpens.allSatisfy { nfts.contains($0.item ?? "") })
            let clicks = events.filter { $0.event == .click }.map { "\($0.screen.rawValue).\($0.action!.rawValue)" }
            #expect(clicks.contains("catalog.sort") && clicks.contains("payment.pay"), "\(clicks)")
        }
    }

    /// An id a hostile server gave (escapes, look-alike letters, too long) is left out of the
    /// event, which is sent without it rather than the server refusing its whole batch.
    @Test func anItemThatIsNoPlainIDIsLeftOut() async throws {
        try await InProcessTestServer.with { server async throws in
            let (usage, heard) = Self.recorder(server)
            for item in ["\u{1B}[2J", "Аpril", String(repeating: "7", count: 65), "42"] {
                usage.record(UsageEvent(.open, .nft, item: item))
            }
            #expect(heard.events.map(\.item) == [nil, nil, nil, "42"])
            #expect(heard.events.allSatisfy { $0.problem == nil })
        }
    }

    /// A like and a cart change are clicks with the NFT's id; undo is a click of its own, not a
    /// like; nothing is recorded where no recorder runs (analytics off).
    @Test func likesCartAndUndoAreClicksWithTheirNFT() async throws {
        try await InProcessTestServer.with { server async throws in
            let (usage, heard) = Self.recorder(server)
            let (context, shell) = try await startedApp(server)
            _ = shell.handle(.key(.enter))
            let collection = try #require(shell.currentScreen as? CollectionScreen)
            #expect(await eventually { collection.model.nfts.value != nil })
            let first = try #require(collection.model.nfts.value?.first)
            let liked = context.state.isLiked(first), carted = context.state.isInCart(first)
            try #require(context.state.cartPlace(first) != .owned)
            UsageRecorder.$current.withValue(usage) {
                _ = frame(shell, Size(width: 80, height: 24))
                for key in ["l", "c", "u"] { _ = shell.handle(.key(.char(Character(key)))) }
            }
            _ = shell.handle(.key(.char("l")))  // no recorder: nothing heard
            #expect(
                heard.events.filter { $0.event == .click } == [
                    UsageEvent(.click, .collection, action: liked ? .unlike : .like, item: first.id),
                    UsageEvent(.click, .collection, action: carted ? .cartRemove : .cartAdd, item: first.id),
                    UsageEvent(.click, .collection, action: .undo),
                ], "\(heard.events)")
        }
    }
}

@MainActor @Suite struct RatingPromptTests {
    /// A schedule whose next start asks: five starts on which something was done.
    static func owedRecord() -> RatingRecord {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rating-\(UUID()).json")
        let record = RatingRecord(fileURL: file, server: "test", account: nil)
        var schedule = RatingSchedule()
        for _ in 0..<RatingSchedule.firstAfter {
            _ = schedule.started()
            schedule.acted()
        }
        record.save(schedule)
        return record
    }

    /// Runs `body` with the tabs and a rating prompt on `record`'s schedule (this start counted),
    /// the catalog loaded, usage recorded as the app records it.
    static func withApp(
        _ server: any ServerUnderTest, _ record: RatingRecord,
        _ body: (AppContext, AppShell, UsageRecordingTests.Heard) async throws -> Void
    ) async throws {
        let context = makeContext(server)
        let (usage, heard) = UsageRecordingTests.recorder(server)
        let rating = RatingPrompt(record: record, usage: usage, effects: context.effects)
        usage.heard = { [weak rating] event in
            heard.events.append(event)
            rating?.heard(event)
        }
        let shell = FakeNFTTerminalApp.makeShell(context: context, rating: rating)
        await context.state.start()
        let catalog = try #require((shell.currentScreen as? CatalogScreen)?.model)
        #expect(await eventually { catalog.collections.value != nil && context.state.cart != nil })
        try await UsageRecorder.$current.withValue(usage) { try await body(context, shell, heard) }
    }

    @Test(arguments: [Language.en, .ru]) func thePromptIsWholeAtEverySize(_ language: Language) async throws {
        try await Language.with(language) {
            try await InProcessTestServer.with { server async throws in
                for size in [
                    Size(width: 40, height: 20), Size(width: 80, height: 24), Size(width: 120, height: 40),
                    Size(width: 200, height: 60),
                ] {
                    try await Self.withApp(server, Self.owedRecord()) { _, shell, _ in
                        let text = frame(shell, size)
                        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                        for part in [
                            tr(.ratingTitle), "☆ ☆ ☆ ☆ ☆", "[ \(tr(.ratingSend)) (Enter) ]",
                            "[ \(tr(.ratingNotNow)) (n) ]", "[ \(tr(.ratingNever)) (d) ]",
                        ] + tr(.ratingQuestion).split(separator: " ").map { " \($0) " } {
                            #expect(" \(words) ".contains(part), "\(part) at \(size): \(text)")
                        }
                        if [40, 120].contains(size.width) {
                            assertSnapshot(text, named: "\(language.rawValue)-rating-\(size.width)x\(size.height)")
                        }
                    }
                }
            }
        }
    }

    @Test func starsAreSentOnceAndTheAnswerIsFinal() async throws {
        try await InProcessTestServer.with { server async throws in
            let record = Self.owedRecord()
            try await Self.withApp(server, record) { context, shell, heard in
                let size = Size(width: 80, height: 24)
                #expect(frame(shell, size).contains(tr(.ratingTitle)))
                _ = shell.handle(.key(.enter))
                #expect(context.effects.toast?.message == tr(.ratingChooseFirst), "no stars yet: nothing sent")
                for key in ["2", "l", "l", "h", "l"] { _ = shell.handle(.key(.char(Character(key)))) }
                #expect(frame(shell, size).contains("★ ★ ★ ★ ☆"))
                _ = shell.handle(.key(.char("1")))  // a digit is never the Catalog tab while the prompt is open
                _ = shell.handle(.key(.char("4")))
                _ = shell.handle(.key(.enter))
                #expect(!frame(shell, size).contains(tr(.ratingTitle)))
                #expect(heard.events.contains(UsageEvent(.open, .rating)))
                #expect(heard.events.filter { $0.event == .rate } == [UsageEvent(.rate, .rating, stars: 4)])
                #expect(heard.events.last == UsageEvent(.close, .rating))
                #expect(context.effects.toast?.message == tr(.ratingThanks, 4))
                #expect(record.load().isFinal)
            }
            try await Self.withApp(server, record) { _, again, _ in
                #expect(!frame(again, Size(width: 80, height: 24)).contains(tr(.ratingTitle)), "never asked again")
            }
        }
    }

    @Test func notNowAndDontAskAgainAreClicksOfTheirOwn() async throws {
        try await InProcessTestServer.with { server async throws in
            for (key, action) in [("n", UsageEvent.Action.notNow), ("d", .never)] {
                let record = Self.owedRecord()
                try await Self.withApp(server, record) { _, shell, heard in
                    _ = frame(shell, Size(width: 40, height: 20))
                    _ = shell.handle(.key(.char(Character(key))))
                    #expect(!frame(shell, Size(width: 40, height: 20)).contains(tr(.ratingTitle)))
                    #expect(heard.events.contains(UsageEvent(.click, .rating, action: action)))
                }
                #expect(record.load().isFinal == (action == .never))
            }
        }
    }

    /// Owed while a form is being edited, the prompt waits until the form is closed.
    @Test func neverOverAFormBeingEdited() async throws {
        try await InProcessTestServer.with { server async throws in
            try await Self.withApp(server, Self.owedRecord()) { _, shell, _ in
                _ = shell.handle(.key(.char("3")))
                let profile = try #require(shell.currentScreen as? ProfileScreen)
                #expect(await eventually { profile.model.profile != nil })
                _ = shell.handle(.key(.char("e")))
                let size = Size(width: 120, height: 40)
                let editing = frame(shell, size)
                #expect(!editing.contains(tr(.ratingTitle)) && profile.model.form != nil, "\(editing)")
                _ = shell.handle(.key(.escape))
                #expect(profile.model.form == nil)
                #expect(frame(shell, size).contains(tr(.ratingTitle)))
            }
        }
    }

    /// A first payment owes the prompt, even before five active starts: it asks once the
    /// success screen is left.
    @Test func aFirstPaymentAsksRightAway() async throws {
        try await InProcessTestServer.with { server async throws in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("rating-\(UUID()).json")
            try await Self.withApp(server, RatingRecord(fileURL: file, server: "t", account: nil)) { _, shell, _ in
                let size = Size(width: 80, height: 24)
                #expect(!frame(shell, size).contains(tr(.ratingTitle)))
                _ = shell.handle(.key(.char("2")))
                let cart = try #require((shell.currentScreen as? CartScreen)?.model)
                #expect(await eventually { !cart.visibleItems.isEmpty })
                _ = frame(shell, size)
                _ = shell.handle(.key(.char("p")))
                let payment = try #require(shell.currentScreen as? PaymentScreen)
                #expect(await eventually { payment.model.currencies.value != nil })
                _ = frame(shell, size)
                _ = shell.handle(.key(.char("p")))
                #expect(await eventually { payment.model.outcome == .succeeded })
                _ = frame(shell, size)  // the success screen opens: read first, without the prompt over it
                let success = frame(shell, size)
                #expect(!success.contains(tr(.ratingTitle)) && success.contains(tr(.paymentComplete)), "\(success)")
                _ = shell.handle(.key(.enter))  // back to the catalog
                let shown = frame(shell, size)
                #expect(shown.contains(tr(.ratingTitle)) && shown.contains(tr(.tabCatalog)), "\(shown)")
            }
        }
    }
}
