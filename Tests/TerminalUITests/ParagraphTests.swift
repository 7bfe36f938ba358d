import Testing

@testable import TerminalUI

/// Text of styled spans, wrapped and clipped (``Paragraph``), and the bordered ``Block``.
@MainActor @Suite struct ParagraphTests {
    /// `paragraph` drawn in a `width`×`height` buffer: its rows, trailing spaces cut.
    static func drawn(_ paragraph: Paragraph, width: Int, height: Int) -> (rows: [String], buffer: Buffer) {
        var buffer = Buffer(size: Size(width: width, height: height))
        buffer.render(paragraph, in: Rect(x: 0, y: 0, width: width, height: height))
        let rows = (0..<height).map { String(buffer.line($0).reversed().drop { $0 == " " }.reversed()) }
        return (rows, buffer)
    }

    @Test func spansWrapAtSpacesKeepingTheirStyles() {
        let line = Line([Span("Author: ", style: .dim), Span("Anna Karenina", style: .bold), Span(" wrote this.")])
        let (rows, buffer) = Self.drawn(Paragraph([line]), width: 14, height: 4)
        #expect(rows == ["Author: Anna", "Karenina wrote", "this.", ""])
        #expect(buffer[0, 0].style == .dim && buffer[8, 0].style == .bold)
        #expect(buffer[0, 1].style == .bold && buffer[9, 1].style == .plain)
    }

    @Test func aWordLongerThanARowIsBrokenAndRowsBeyondTheHeightLeftOut() {
        let text = Paragraph([Line("abcdefghij klm"), .blank, Line("after")])
        #expect(Self.drawn(text, width: 4, height: 3).rows == ["abcd", "efgh", "ij"])
        #expect(text.height(width: 4) == 7, "abcd efgh ij klm, the blank row, afte r")
        #expect(text.height(width: 4, most: 2) == 2)
    }

    @Test func aButtonIsKeptWholeAndClickedAsItsKey() {
        let line = Line([Span("Press"), Span(" "), .button("[ Send (Enter) ]", style: .selected, key: .enter)])
        let (rows, buffer) = Self.drawn(Paragraph([line]), width: 18, height: 2)
        #expect(rows == ["Press", "[ Send (Enter) ]"])
        #expect(buffer.target(at: Point(x: 3, y: 1)) == .key(.enter))
        #expect(buffer.target(at: Point(x: 2, y: 0)) == nil)
    }

    @Test func aGapHoldsItsNeighboursOnOneRow() {
        let buttons = Line([
            .button("[ A ]", style: .bold, key: .char("a")), .gap(2), .button("[ B ]", style: .bold, key: .char("b")),
        ])
        let (rows, buffer) = Self.drawn(Paragraph([Line("Choose:"), buttons]), width: 14, height: 2)
        #expect(rows == ["Choose:", "[ A ]  [ B ]"], "the gap's two cells shown as spaces")
        #expect(buffer.target(at: Point(x: 8, y: 1)) == .key(.char("b")) && buffer.target(at: Point(x: 6, y: 1)) == nil)
        let oneRow = Line([Span("Choose:"), .gap(1), .button("[ A ]", style: .bold, key: .char("a"))], wraps: false)
        #expect(Self.drawn(Paragraph([oneRow]), width: 14, height: 1).rows == ["Choose: [ A ]"])
    }

    @Test func aLineThatDoesNotWrapIsCutAndAlignmentsPlaceRows() {
        let lines = [
            Line("a line that does not wrap", wraps: false), Line("mid", alignment: .center),
            Line("end", alignment: .trailing),
        ]
        #expect(Self.drawn(Paragraph(lines), width: 9, height: 3).rows == ["a line t…", "   mid", "      end"])
    }

    /// A huge text costs what the rect shows: the rows drawn come from its start, cut as a
    /// whole text's would be.
    @Test func aHugeTextIsReadOnlyAsFarAsItsRowsShow() {
        let huge = String(repeating: "word ", count: 600_000)  // 3 MB
        let (rows, _) = Self.drawn(Paragraph([Line(huge), Line(huge, wraps: false)]), width: 12, height: 3)
        #expect(rows == ["word word", "word word", "word word"])
        #expect(Self.drawn(Paragraph([Line(huge, wraps: false)]), width: 12, height: 1).rows == ["word word w…"])
    }

    @Test func hostileTextIsDrawnInertAndNewlinesStartRows() {
        let line = Line("one\u{1B}[2J\ntwo\u{202E}three\tfour")
        let (rows, _) = Self.drawn(Paragraph([line]), width: 20, height: 3)
        #expect(rows == ["one", "twothree four", ""])
    }

    @Test func theFocusRestsOnItsSpan() {
        let line = Line([Span("Rate: "), Span("★", isFocus: true)])
        #expect(Self.drawn(Paragraph([line]), width: 10, height: 1).buffer.focus == Point(x: 6, y: 0))
    }

    @Test func aBlockFramesItsInnerRectWithItsTitle() {
        var buffer = Buffer(size: Size(width: 12, height: 4))
        let block = Block(title: "Rate", style: .accent)
        buffer.render(block, in: Rect(x: 0, y: 0, width: 12, height: 4))
        #expect(block.inner(Rect(x: 0, y: 0, width: 12, height: 4)) == Rect(x: 2, y: 1, width: 8, height: 2))
        #expect(
            buffer.line(0) == "┌─ Rate ───┐" && buffer.line(1) == "│          │" && buffer.line(3) == "└──────────┘")
    }
}
