import Testing
@testable import TerminalUI

/// Links in a frame: what is recorded for the surface to write as OSC 8, what keeps it, and
/// which terminals get it.
@Suite struct HyperlinkTests {
    @Test func aLinkRecordsTheCellsItWasDrawnAs() throws {
        var buffer = Buffer(size: Size(width: 20, height: 3))
        let used = buffer.draw(
            "https://example.com/long", at: Point(x: 2, y: 1), style: .link, maxWidth: 10,
            link: "https://example.com/long")
        #expect(used == 10)
        let link = try #require(buffer.hyperlinks.first)
        #expect(buffer.hyperlinks.count == 1)
        #expect(link.origin == Point(x: 2, y: 1))
        #expect(link.cells.map(\.text).joined() == "https://e…")
        #expect(link.cells.allSatisfy { $0.style == .link })
        #expect(buffer.isIntact(link))
        buffer.draw("X", at: Point(x: 5, y: 1))  // a dialog or toast over part of it
        #expect(!buffer.isIntact(link))
    }

    @Test func anAddressThatCouldBreakTheEscapeIsNotALink() {
        var buffer = Buffer(size: Size(width: 40, height: 1))
        for address in [
            "https://a.example/\u{1B}]52;c;AAAA\u{07}", "https://a.example/\u{07}", "https://a.example/ x",
            "https://пример.рф", "", String(repeating: "a", count: 2001),
        ] {
            buffer.draw("text", at: Point(x: 0, y: 0), style: .link, link: address)
        }
        #expect(buffer.hyperlinks.isEmpty)
        #expect(buffer.line(0).hasPrefix("text"))
    }

    @Test func aScrolledViewKeepsTheLinksItShowsWhole() {
        var page = Buffer(size: Size(width: 20, height: 10))
        page.draw("top", at: Point(x: 0, y: 1), style: .link, link: "https://top.example")
        page.draw("bottom", at: Point(x: 0, y: 8), style: .link, link: "https://bottom.example")
        var screen = Buffer(size: Size(width: 20, height: 5))
        screen.blit(page, from: Rect(x: 0, y: 5, width: 20, height: 5), to: Point(x: 0, y: 0))
        #expect(screen.hyperlinks.map(\.url) == ["https://bottom.example"])
        #expect(screen.hyperlinks.first?.origin == Point(x: 0, y: 3))
        #expect(screen.hyperlinks.allSatisfy(screen.isIntact))
    }

    @Test func consolesThatWouldPrintTheEscapeGetNone() {
        for term in ["xterm-256color", "tmux-256color", "screen-256color", "xterm-kitty", "foot", "alacritty"] {
            #expect(HyperlinkSupport.detect(environment: ["TERM": term]), "\(term)")
        }
        for term in ["linux", "vt100", "vt220", "dumb", "cons25", "ansi", "sun-color"] {
            #expect(!HyperlinkSupport.detect(environment: ["TERM": term]), "\(term)")
        }
    }
}
