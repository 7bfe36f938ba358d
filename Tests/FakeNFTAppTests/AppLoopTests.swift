import Observation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// The main loop on a headless terminal: how many frames a session's keys cost.
/// Serialized: each test has a curses screen of its own, and curses has one current screen for the process.
@MainActor @Suite(.serialized) struct AppLoopTests {
    @Observable final class Model {
        var text = ""
        var elsewhere = 0
    }

    /// Types into a line of text; draws it with a figure something else changes.
    final class Typing: LoopContent {
        let model = Model()
        private(set) var draws = 0
        private(set) var dropped = 0
        func handle(_ event: TerminalEvent) -> Bool {
            if case .keysDropped(let count) = event { dropped += count }
            guard case .key(.char(let c)) = event else { return true }
            if c == "q" { return false }
            model.text.append(c)
            return true
        }
        func draw(into buffer: inout Buffer) {
            draws += 1
            buffer.draw("\(model.elsewhere) \(model.text.suffix(30))", at: Point(x: 0, y: 0))
        }
        var isAnimating: Bool { false }
        var isFinished: Bool { false }
    }

    final class Terminal: LoopTerminal {
        let headless: HeadlessTerminal
        let (stream, reads) = AsyncStream.makeStream(of: [TerminalEvent].self)
        init(_ headless: HeadlessTerminal) { self.headless = headless }
        func events() -> AsyncStream<[TerminalEvent]> { stream }
        var size: Size { headless.surface.size }
        var surface: TerminalSurface { headless.surface }
    }

    /// 2,000 keys, some arriving together and some alone, with a change from elsewhere every 50:
    /// a frame for each, never more as the session goes on (frames left watching a change that
    /// a newer frame had drawn once piled up, a frame more a key every few hundred keys).
    @Test func eachKeyCostsOneFrameHoweverLongTheSession() async throws {
        let headless = try #require(HeadlessTerminal(size: Size(width: 40, height: 5)))
        defer { headless.close() }
        let terminal = Terminal(headless), content = Typing(), loop = AppLoop(session: terminal)
        let typing = Task { @MainActor in
            for i in 1...2_000 {
                terminal.reads.yield([.key(.char("x"))])
                if i % 50 == 0 { content.model.elsewhere += 1 }
                if i % 7 == 0 { await Task.yield() }
            }
            terminal.reads.yield([.key(.char("q"))])
        }
        #expect(await loop.run(content) == .quit)
        await typing.value
        #expect(content.model.text.count == 2_000)
        // A frame per key and per outside change, and the first.
        #expect(content.draws <= 1 + 2_000 + 40, "\(content.draws) frames for 2,000 keys")
    }

    /// What one read held is acted on together and drawn as one frame: a read of typed keys is
    /// one frame; a flood of 200,000 keys costs a frame a read and leaves its `q` acting at once
    /// (the flood's other keys dropped, and said).
    @Test func aReadIsOneFrameAndAFloodWaitsForNothing() async throws {
        let headless = try #require(HeadlessTerminal(size: Size(width: 40, height: 5)))
        defer { headless.close() }
        let terminal = Terminal(headless), content = Typing(), loop = AppLoop(session: terminal)
        let typed: [TerminalEvent] = Array("hello".map { .key(.char($0)) })
        terminal.reads.yield(typed)
        let flood: [TerminalEvent] = Array(repeating: .key(.char("j")), count: 200_000) + [.key(.char("q"))]
        terminal.reads.yield(InputBacklog.fair(flood))
        #expect(await loop.run(content) == .quit)
        #expect(content.model.text == "hello", "the flood's keys were not acted on")
        #expect(content.draws == 2, "the first frame and one for the read of five keys: \(content.draws)")
        #expect(content.dropped == 200_000)
    }
}
