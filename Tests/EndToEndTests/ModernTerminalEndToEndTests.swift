import FakeNFTTesting
import Foundation
import Glibc
import Testing

extension EndToEnd {
    /// The app on a terminal of today (``ModernTerminal``): every frame synchronized, keys read in
    /// the kitty keyboard protocol once the terminal answered its query, the theme following the
    /// terminal's colour scheme reports, and every protocol undone on each way out. The same app
    /// in tmux (which answers none of these) is every other end-to-end test.
    @Suite struct ModernTerminalEndToEndTests {
        static let esc = "\u{1B}"
        static let push = "\(esc)[>1u", pop = "\(esc)[<u"

        /// `output` with every synchronized frame taken out: what was written outside them.
        static func outsideFrames(_ output: String) -> String {
            var outside = "", rest = Substring(output)
            while let open = rest.range(of: "\(esc)[?2026h") {
                outside += rest[..<open.lowerBound]
                guard let close = rest[open.upperBound...].range(of: "\(esc)[?2026l") else {
                    return outside + "(unclosed)"
                }
                rest = rest[close.upperBound...]
            }
            return outside + rest
        }

        @Test func framesAreSynchronizedAndKeysComeInTheKittyProtocol() async throws {
            let terminal = try ModernTerminal()
            try await terminal.passWelcome()
            #expect(terminal.output().contains(Self.push), "the terminal answered the query: the protocol is pushed")
            #expect(
                terminal.output().contains("\(Self.esc)[?2031h") && terminal.output().contains("\(Self.esc)[?1004h"))
            let start = terminal.markAfterLastFrame  // the catalog's frame may still be arriving
            var mark = terminal.mark
            terminal.type("\(Self.esc)[13u")  // Enter: the first collection
            try await terminal.waitFor("Collection author", after: mark)
            mark = terminal.mark
            terminal.type("\(Self.esc)[27u")  // Esc: back (a legacy decoder drops this as an unknown sequence)
            try await terminal.waitFor("9 collections", after: mark)
            mark = terminal.mark
            terminal.type("j")
            try await terminal.waitFor("\(Self.esc)[?2026l", after: mark)
            let written = terminal.output(after: start)  // up to the end of the last whole frame
            let frames = String(written[..<written.range(of: "\(Self.esc)[?2026l", options: .backwards)!.upperBound])
            #expect(frames.hasPrefix("\(Self.esc)[?2026h"))
            #expect(Self.outsideFrames(frames).isEmpty, "every byte of a frame inside its synchronized update")
        }

        @Test func aColourSchemeReportRecoloursTheScreen() async throws {
            let terminal = try ModernTerminal()
            try await terminal.passWelcome()
            #expect(terminal.log().contains("theme: dark"))
            let mark = terminal.mark
            terminal.type("\(Self.esc)[?997;2n")  // the terminal turned light
            try await terminal.waitFor("\(Self.esc)[?2026l", after: mark)
            #expect(terminal.output(after: mark).contains("\(Self.esc)["), "the screen drawn again")
            #expect(await polled { terminal.log().contains("theme: light") }, "\(terminal.log())")
        }

        @Test func theProtocolsAreUndoneOnQuit() async throws {
            let terminal = try ModernTerminal()
            try await terminal.passWelcome()
            let mark = terminal.mark
            terminal.type("q")
            #expect(await terminal.exitStatus() == 0)
            let atExit = terminal.output(after: mark)
            for undo in [Self.pop, "\(Self.esc)[?2031l", "\(Self.esc)[?1004l", "\(Self.esc)[?2004l"] {
                #expect(atExit.contains(undo), "\(undo.debugDescription) on the way out")
            }
        }

        @Test func theProtocolsAreUndoneOnSIGTERM() async throws {
            let terminal = try ModernTerminal()
            try await terminal.passWelcome()
            let mark = terminal.mark
            kill(terminal.pid, SIGTERM)
            #expect(await terminal.exitStatus() == 128 + SIGTERM)
            #expect(terminal.output(after: mark).contains(Self.pop))
        }

        /// Ctrl-Z (as the kitty protocol sends it) gives the shell a terminal without the protocol;
        /// `fg` (SIGCONT) pushes it again.
        @Test func ctrlZPopsTheProtocolAndFgPushesItAgain() async throws {
            let terminal = try ModernTerminal()
            try await terminal.passWelcome()
            var mark = terminal.mark
            terminal.type("\(Self.esc)[122;5u")
            try await terminal.waitFor(Self.pop, after: mark)
            mark = terminal.mark
            kill(terminal.pid, SIGCONT)
            try await terminal.waitFor(Self.push, after: mark)
            terminal.type("q")
            #expect(await terminal.exitStatus() == 0)
        }
    }
}
