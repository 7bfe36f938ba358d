import FakeNFTCore
import Foundation
import Localization
import Synchronization
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// An app left open for hours beside others using the same server: after 10,000 list moves and
/// 1,000 live updates, a key and its frame do the same work as in a fresh app. The work is
/// counted, not timed: the words the widgets ask for, the deepest stack under them, the tasks
/// the screen keeps.
/// Serialized: the widgets' words are counted by one counter for the process, which two tests at
/// once would count for each other.
@MainActor @Suite(.serialized, .timeLimit(.minutes(5))) struct LongSessionTests {
    /// What one key and the frame after it cost.
    struct Work: Equatable {
        var words: Int
        var deepestStack: Int
        var tasks: Int
    }

    /// Counts the words the widgets ask for, and the stack depth each is asked at, worded as the
    /// app words them (so every other test sees the same text).
    final class WordCounter: Sendable {
        private let seen = Mutex<(words: Int, deepest: Int)>((0, 0))

        /// Puts the counter between the widgets and the app's words (again: another suite may
        /// have given its words since).
        func install() {
            _ = WidgetWords.given  // the app's own, given first so that they never replace these later
            WidgetText.useWords { [self] word, arguments in
                let depth = Thread.callStackReturnAddresses.count
                seen.withLock { $0 = ($0.words + 1, max($0.deepest, depth)) }
                return TextKey(rawValue: word.rawValue).map { Catalog.text($0, arguments, in: Language.current) }
                    ?? word.rawValue
            }
        }

        /// What was counted since the last take.
        func take() -> (words: Int, deepest: Int) {
            seen.withLock { seen in
                defer { seen = (0, 0) }
                return seen
            }
        }
    }

    let counter = WordCounter()
    let size = Size(width: 80, height: 24)

    /// The work `j` and its frame do now, then `k` back.
    func workOfAKey(_ shell: AppShell, _ screen: StatisticsScreen) -> Work {
        _ = counter.take()
        _ = shell.handle(.key(.char("j")))
        _ = frame(shell, size)
        let seen = counter.take()
        _ = shell.handle(.key(.char("k")))
        _ = frame(shell, size)
        return Work(words: seen.words, deepestStack: seen.deepest, tasks: screen.tasks.count)
    }

    /// Puts the counter back in place if another suite gave the widgets its words meanwhile (each
    /// suite gives its own once per process): what it counts is then this test's words again.
    func keepCounting() {
        if counter.take().words == 0 { counter.install() }
    }

    @Test func aKeyCostsTheSameAfterTenThousandMovesAndAThousandLiveUpdates() async throws {
        try await TestServer.with { server async throws in
            let (context, shell) = try await startedApp(server)
            counter.install()
            _ = shell.handle(.key(.char("4")))
            let screen = try #require(shell.currentScreen as? StatisticsScreen)
            #expect(await eventually { screen.model.users.count > 3 && !screen.model.isLoading })
            #expect(await eventually { context.state.freshness == .current })
            #expect(await polled { screen.tasks.count == 1 }, "the first loads ended: the live updates' follow is left")
            _ = frame(shell, size)
            let fresh = workOfAKey(shell, screen)
            #expect(fresh.words > 0 && fresh.deepestStack > 0, "the counter saw the key's words")

            for i in 0..<10_000 {
                _ = shell.handle(.key(.char(i % 2 == 0 ? "j" : "k")))
                guard i % 100 == 99 else { continue }
                _ = frame(shell, size)  // keys faster than frames, as at key-repeat speed
                keepCounting()
                await Task.yield()  // the other tests on the main actor go on meanwhile
            }
            // 1,000 changes of the cart by someone else, each a live update and a frame here.
            let api = server.client()
            let order = try await api.order()
            for i in 0..<1_000 {
                let nfts = i % 2 == 0 ? Array(order.nfts.dropLast()) : order.nfts
                _ = try await api.updateOrder(nfts: nfts, ifVersion: nil)
                _ = frame(shell, size)
            }
            #expect(await eventually { context.state.cart == order.nfts }, "the last live update arrived")
            #expect(screen.pane.selection.selected == 0)
            _ = frame(shell, size)
            keepCounting()

            let after = workOfAKey(shell, screen)
            #expect(after == fresh, "fresh: \(fresh), after: \(after)")
        }
    }
}
