import Foundation
import Glibc
import Testing
@testable import TerminalUI

/// Detection against the replies real terminals give to the start-up queries. xterm and tmux
/// were recorded on this machine (xterm 379, tmux 3.3a inside `xterm -ti vt340`); the others are
/// the replies their documentation and issue trackers show.
@Suite struct TerminalDetectionTests {
    static let esc = "\u{1B}"
    static func replies(_ text: String) -> TerminalReplies { TerminalReplies(parsing: Array(text.utf8)) }
    static let xterm = ["TERM": "xterm-256color"]

    /// Recorded: `xterm -ti vt340` (no window ops, so no cell size).
    static let xtermVT340 = "\(esc)P>|XTerm(379)\(esc)\\\(esc)[?63;1;2;4;6;9;15;16;22;28c"
    /// Recorded: plain xterm (a VT420: no sixel).
    static let xtermPlain = "\(esc)P>|XTerm(379)\(esc)\\\(esc)[?64;1;2;6;9;15;16;17;18;21;22;28c"
    /// Recorded: tmux 3.3a without passthrough (only tmux answers).
    static let tmuxClosed = "\(esc)P>|tmux 3.3a\(esc)\\\(esc)[?1;2c"
    /// Recorded: tmux 3.3a with `allow-passthrough on` in xterm -ti vt340 (xterm answers too).
    static let tmuxOpen = tmuxClosed + xtermVT340
    static let kitty =
        "\(esc)P>|kitty(0.35.2)\(esc)\\\(esc)_Gi=31;OK\(esc)\\\(esc)[6;20;10t\(esc)[4;800;1000t\(esc)[?62;c"
    static let oldKitty = "\(esc)P>|kitty(0.26.5)\(esc)\\\(esc)_Gi=31;OK\(esc)\\\(esc)[6;20;10t\(esc)[?62;c"
    static let ghostty = "\(esc)P>|ghostty 1.1.3\(esc)\\\(esc)_Gi=31;OK\(esc)\\\(esc)[6;34;16t\(esc)[?62;22c"
    static let foot = "\(esc)P>|foot(1.16.2)\(esc)\\\(esc)[6;17;8t\(esc)[4;510;800t\(esc)[?62;4;22;28c"
    static let wezTerm =
        "\(esc)P>|WezTerm 20240203-110809-5046fc22\(esc)\\\(esc)_Gi=31;OK\(esc)\\\(esc)[6;16;8t\(esc)[?65;4;6;18;22c"
    static let windowsTerminal = "\(esc)[6;20;10t\(esc)[?61;4;6;7;14;21;22;23;24;28;32;42c"

    static func decide(
        _ text: String?, _ environment: [String: String] = xterm,
        window: (cells: Size, pixels: Size)? = nil
    ) -> TerminalGraphics {
        TerminalGraphics.decide(choice: .auto, environment: environment, replies: text.map(replies), windowSize: window)
    }

    @Test func xtermWithSixelShowsSixelAndTakesTheCellSizeFromTheWindow() {
        let found = Self.decide(Self.xtermVT340, window: (Size(width: 100, height: 30), Size(width: 600, height: 390)))
        #expect(found.mode == .sixel)
        #expect(found.cellPixels == Size(width: 6, height: 13))
        #expect(!found.throughTmux)
        #expect(found.reasons.contains { $0.contains("xterm 379") })
    }

    @Test func terminalsWithoutPixelsKeepCharacterArt() {
        #expect(Self.decide(Self.xtermPlain).mode == .symbols)
        #expect(Self.decide(Self.oldKitty).mode == .symbols)
        #expect(Self.decide(Self.oldKitty).reasons.contains { $0.contains("no Unicode placeholders") })
        #expect(Self.decide(Self.xtermVT340, ["TERM": "linux"]).mode == .symbols)
        #expect(Self.decide(Self.xtermVT340, ["TERM": "dumb"]).mode == .symbols)
        #expect(Self.decide(Self.xtermVT340, [:]).mode == .symbols)
    }

    @Test func silenceMeansCharacterArt() {
        let found = Self.decide("")
        #expect(found.mode == .symbols)
        #expect(found.cellPixels == TerminalGraphics.assumedCellPixels)
        #expect(found.reasons.contains { $0.contains("answered no query") })
        #expect(Self.decide(nil).mode == .symbols)
    }

    @Test func kittyAndGhosttyGetPlaceholdersWithTheirCellSize() {
        let kitty = Self.decide(Self.kitty, ["TERM": "xterm-kitty"])
        #expect(kitty.mode == .kitty)
        #expect(kitty.cellPixels == Size(width: 10, height: 20))
        let ghostty = Self.decide(Self.ghostty, ["TERM": "xterm-ghostty"])
        #expect(ghostty.mode == .kitty)
        #expect(ghostty.cellPixels == Size(width: 16, height: 34))
    }

    @Test func footAndWindowsTerminalGetSixelWezTermGetsITerm2Images() {
        let foot = Self.decide(Self.foot, ["TERM": "foot"])
        #expect(foot.mode == .sixel)
        #expect(foot.cellPixels == Size(width: 8, height: 17))
        #expect(Self.decide(Self.windowsTerminal).mode == .sixel)
        // WezTerm answers the kitty query but has no placeholders; its iTerm2 images work best.
        #expect(Self.decide(Self.wezTerm).mode == .iterm2)
    }

    @Test func tmuxWithoutPassthroughKeepsCharacterArtAndSaysWhatToSet() {
        let environment = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "1"]
        let found = Self.decide(Self.tmuxClosed, environment)
        #expect(found.mode == .symbols)
        #expect(found.reasons.contains { $0.contains("tmux 3.3a") })
        #expect(found.reasons.contains { $0.contains(TerminalGraphics.tmuxAdvice) })
    }

    @Test func tmuxWithPassthroughNeedsTmuxItselfToHaveSixel() {
        let environment = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        // xterm behind tmux 3.3a has sixel, tmux has not: its redraws would wipe them.
        #expect(Self.decide(Self.tmuxOpen, environment).mode == .symbols)
        // tmux 3.4+ built with sixel answers 4 itself.
        let sixelTmux = "\(Self.esc)P>|tmux 3.5a\(Self.esc)\\\(Self.esc)[?1;2;4c" + Self.xtermVT340
        #expect(Self.decide(sixelTmux, environment).mode == .sixel)
        #expect(!Self.decide(sixelTmux, environment).throughTmux)
    }

    @Test func kittyBehindTmuxWithPassthroughGetsPlaceholdersThroughIt() {
        let environment = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        let found = Self.decide(Self.tmuxClosed + Self.kitty, environment)
        #expect(found.mode == .kitty)
        #expect(found.throughTmux)
    }

    @Test func aForcedModeWinsOverEverything() {
        for mode in ImageMode.allCases {
            let choice = ImagesChoice(rawValue: mode.rawValue)!
            #expect(TerminalGraphics.decide(choice: choice, environment: [:], replies: nil).mode == mode)
        }
    }

    @Test func repliesSurviveGarbageCutRepliesAndKeysTypedMeanwhile() {
        let noisy = "ab\(Self.esc)[A" + Self.foot + "\(Self.esc)[6;99999999;1t" + "\(Self.esc)P>|cut"
        let parsed = Self.replies(noisy)
        #expect(parsed.program?.name == "foot")
        #expect(parsed.cellPixels == Size(width: 8, height: 17))
        #expect(parsed.deviceAttributes == [[62, 4, 22, 28]])
        // A kitty answer for another image or an error is not a yes.
        #expect(!Self.replies("\(Self.esc)_Gi=7;OK\(Self.esc)\\").kittyGraphics)
        #expect(!Self.replies("\(Self.esc)_Gi=31;ENOTSUPPORTED:no\(Self.esc)\\").kittyGraphics)
        // An escape in a version string never reaches the report.
        #expect(Self.replies("\(Self.esc)P>|evil\u{9B}2J\(Self.esc)\\").versions.allSatisfy { !$0.contains("\u{9B}") })
    }

    @Test func theQueriesEndWithDeviceAttributesAndGoThroughTmux() {
        let plain = TerminalProbe.queries(inTmux: false)
        #expect(plain.deviceAttributes == 1)
        #expect(plain.text.hasSuffix("\(Self.esc)[c"))
        #expect(plain.text.contains("a=q"))
        let tmux = TerminalProbe.queries(inTmux: true)
        #expect(tmux.deviceAttributes == 2)
        #expect(tmux.text.hasPrefix("\(Self.esc)[>0q\(Self.esc)Ptmux;"))
        #expect(tmux.text.contains("\(Self.esc)\(Self.esc)_Gi=31"))
    }

    /// The probe on a pseudo-terminal: answers end it at once; silence costs the time limit;
    /// nothing is left to be read as keys.
    @Test func theProbeStopsAtDeviceAttributesOrTheTimeLimitAndLeavesNoReply() throws {
        var master: Int32 = 0, slave: Int32 = 0
        #expect(openpty(&master, &slave, nil, nil, nil) == 0)
        defer {
            close(master)
            close(slave)
        }
        let answer = Array(Self.foot.utf8), terminal = master
        let responder = Thread {
            var buffer = [UInt8](repeating: 0, count: 512)
            _ = read(terminal, &buffer, buffer.count)  // the queries
            _ = answer.withUnsafeBytes { write(terminal, $0.baseAddress, $0.count) }
        }
        responder.start()
        let clock = ContinuousClock()
        var bytes: [UInt8] = []
        let answered = clock.measure {
            bytes = TerminalProbe.ask(
                TerminalProbe.queries(inTmux: false).text, expectingDeviceAttributes: 1, tty: slave)
        }
        #expect(TerminalReplies(parsing: bytes).program?.name == "foot")
        #expect(answered < .milliseconds(TerminalProbe.timeLimit))
        let silent = clock.measure {
            bytes = TerminalProbe.ask("\(Self.esc)[c", expectingDeviceAttributes: 1, tty: slave)
        }
        #expect(bytes.isEmpty)
        #expect(
            silent >= .milliseconds(TerminalProbe.timeLimit - 10)
                && silent < .milliseconds(TerminalProbe.timeLimit + 250))
    }
}
