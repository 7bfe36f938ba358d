import Testing

@testable import TerminalUI

/// What the terminal is sent for each frame (``FrameBytes``), read back by a terminal model
/// (``ScreenEmulator``): after every frame of a long run of list moves, scrolls, edits, wide
/// characters and styles the screen shows each cell as the frame says; and the bytes are few.
@Suite struct FrameWritingTests {
    private static let renditions = GraphicRenditions(theme: .dark, colors: .full)

    /// Frames one after another as the surface writes them, the scroll region kept between them.
    private struct Writer {
        /// Whether the terminal scrolls a region by a count (xterm) or by indexing (the Linux console).
        let counted: Bool
        private var region: Range<Int>?
        init(counted: Bool = true) { self.counted = counted }

        mutating func bytes(_ frame: Buffer, over previous: Buffer?) -> [UInt8] {
            var bytes = FrameBytes(attributes: FrameWritingTests.renditions, region: region)
            _ = bytes.write(frame, over: previous, rewriting: [], scrolling: true, counted: counted)
            region = bytes.region
            return bytes.bytes
        }
    }

    /// A cell's look as the terminal should show it: a blank by its background alone.
    private static func expected(_ cell: Cell) -> ScreenEmulator.Shown {
        let style = GraphicRenditions.visible(renditions.resolve(cell.style), text: cell.text)
        return ScreenEmulator.Shown(
            text: cell.text,
            attributes: .init(
                bold: style.bold, dim: style.dim, underline: style.underline, reverse: style.reverse,
                foreground: ColorSupport.full.cursesNumber(style.foreground) ?? -1,
                background: ColorSupport.full.cursesNumber(style.background) ?? -1))
    }

    private static func shown(_ cell: ScreenEmulator.Shown) -> ScreenEmulator.Shown {
        var cell = cell
        let a = cell.attributes
        if cell.text == " ", !a.reverse, !a.underline { cell.attributes = .init(background: a.background) }
        return cell
    }

    /// Every cell of the screen against the frame; the first difference, if any.
    private static func difference(_ screen: ScreenEmulator, _ frame: Buffer) -> String? {
        for y in 0..<frame.size.height {
            // A wide character's right half: its text alone (its attributes are the character's).
            for x in 0..<frame.size.width
            where frame[x, y].text.isEmpty
                ? !screen[x, y].text.isEmpty : shown(screen[x, y]) != expected(frame[x, y])
            {
                return "(\(x), \(y)): shows \(shown(screen[x, y])), the frame has \(expected(frame[x, y]))"
            }
        }
        return nil
    }

    /// A list of `count` rows from `offset` with row `selected` highlighted, a counter above it, a
    /// border, and whatever `edits` draw over it.
    @MainActor private static func listFrame(
        _ size: Size, offset: Int, selected: Int, edits: [(String, Point, Style)] = []
    ) -> Buffer {
        var frame = Buffer(size: size)
        frame.draw("Row \(selected + 1) of 500", at: Point(x: 1, y: 0), style: .bold)
        frame.render(
            Block(style: Style(foreground: .theme(.border))),
            in: Rect(x: 0, y: 1, width: size.width, height: size.height - 1))
        for row in 0..<(size.height - 3) {
            let index = offset + row, isSelected = index == selected
            let name = ["Lumen", "漢字 Kanji", "Stars ★★★☆☆", "Ёлка", "", "Wide 🌲 tree"][index % 6]
            let style: Style = isSelected ? .selected : index % 5 == 0 ? .accent : index % 7 == 0 ? .dim : .plain
            frame.draw(isSelected ? "▌" : " ", at: Point(x: 1, y: row + 2), style: .accent)
            frame.draw(
                "#\(index)  \(name)", at: Point(x: 2, y: row + 2), style: style, maxWidth: size.width - 3)
            if index % 4 == 0 {
                frame.draw(" new ", at: Point(x: size.width - 8, y: row + 2), style: Style(background: .indexed(24)))
            }
        }
        for (text, point, style) in edits { frame.draw(text, at: point, style: style) }
        frame.focus = Point(x: 1, y: selected - offset + 2)
        return frame
    }

    /// xterm scrolls a region by a count; the Linux console only by indexing at its edge.
    @Test(arguments: [true, false]) @MainActor
    func everyFrameOfALongRunIsShownAsDrawn(countedScrolls: Bool) throws {
        let size = Size(width: 40, height: 14)
        var writer = Writer(counted: countedScrolls)
        var random = SeededRandom(seed: 74)
        var screen = ScreenEmulator(width: size.width, height: size.height)
        var previous: Buffer?
        var offset = 0, selected = 0
        let styles: [Style] = [.plain, .accent, .selected, .link, .error, Style(background: .indexed(52)), .dim]
        for step in 0..<600 {
            switch random.next(below: 10) {
            case 0...4:
                selected = max(0, min(499, selected + (random.next(below: 2) == 0 ? 1 : -1)))
            case 5: selected = max(0, min(499, selected + random.next(below: 7) - 3))
            case 6: selected = max(0, min(499, selected + (random.next(below: 2) == 0 ? 11 : -11)))
            default: break
            }
            let rows = size.height - 3
            if selected < offset { offset = selected }
            if selected >= offset + rows { offset = selected - rows + 1 }
            var edits: [(String, Point, Style)] = []
            if random.next(below: 4) == 0 {
                let texts = ["x", "  ", "★", "漢", "toast: saved", "é", "│", "🌲"]
                edits.append(
                    (
                        texts[random.next(below: texts.count)],
                        Point(x: random.next(below: size.width), y: random.next(below: size.height)),
                        styles[random.next(below: styles.count)]
                    ))
            }
            let frame = Self.listFrame(size, offset: offset, selected: selected, edits: edits)
            let fresh = random.next(below: 50) == 0
            screen.feed(writer.bytes(frame, over: fresh ? nil : previous))
            if let difference = Self.difference(screen, frame) {
                Issue.record("step \(step) (offset \(offset), selected \(selected)): \(difference)")
                return
            }
            previous = frame
        }
    }

    /// A terminal that holds a scroll region this writer never set (curses' own at an older size,
    /// a program before it) shows a whole frame as drawn: the region is reset first, so no line
    /// feed at its bottom scrolls the frame away (seen over SSH after a resize: ten rows gone).
    @Test(arguments: [true, false])
    func aWholeFrameIsShownOverARegionTheWriterNeverSet(countedScrolls: Bool) {
        let size = Size(width: 40, height: 14)
        var screen = ScreenEmulator(width: size.width, height: size.height)
        screen.feed(Array("\u{1B}[1;9r".utf8))  // left by something else
        var writer = Writer(counted: countedScrolls)
        var frame = Buffer(size: size)  // short rows: the next one is reached by a line feed
        for row in 0..<size.height { frame.draw("row \(row + 1)", at: Point(x: 0, y: row)) }
        screen.feed(writer.bytes(frame, over: nil))
        #expect(Self.difference(screen, frame) == nil, "\(Self.difference(screen, frame) ?? "")")
    }

    @Test @MainActor func aListMoveIsFewBytesAndAScrollMovesRowsInTheTerminal() {
        let size = Size(width: 160, height: 46)
        var writer = Writer()
        var screen = ScreenEmulator(width: size.width, height: size.height)
        var previous = Self.listFrame(size, offset: 0, selected: 10)
        screen.feed(writer.bytes(previous, over: nil))
        // A move inside the screen, then one that scrolls the list by a row.
        for (offset, selected) in [(0, 11), (1, 43)] {
            let frame = Self.listFrame(size, offset: offset, selected: selected)
            let bytes = writer.bytes(frame, over: previous)
            screen.feed(bytes)
            #expect(Self.difference(screen, frame) == nil)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(bytes.count < 300, "\(bytes.count) bytes for one move: \(text.debugDescription)")
            #expect(text.contains("\u{1B}[S") == (offset == 1), "the terminal scrolls only when the list does")
            previous = frame
        }
    }

    @Test func aBlankThatOnlyChangesItsForegroundIsNotWritten() {
        let size = Size(width: 20, height: 3)
        var writer = Writer()
        var before = Buffer(size: size)
        before.draw("ab  cd", at: Point(x: 0, y: 1), style: .plain)
        _ = writer.bytes(before, over: nil)
        var after = Buffer(size: size)
        after.draw("ab", at: Point(x: 0, y: 1), style: .plain)
        after.draw("  ", at: Point(x: 2, y: 1), style: .accent)
        after.draw("cd", at: Point(x: 4, y: 1), style: .plain)
        #expect(writer.bytes(after, over: before).isEmpty)
    }

    @Test func theCursorMovesTheShortestWay() {
        func move(from: Point?, to: Point) -> String {
            var bytes = FrameBytes(attributes: Self.renditions)
            if let from { bytes.moveCursor(to: from) }
            let start = bytes.bytes.count
            bytes.moveCursor(to: to)
            return String(decoding: bytes.bytes[start...], as: UTF8.self)
        }
        #expect(move(from: nil, to: Point(x: 4, y: 2)) == "\u{1B}[3;5H")
        #expect(move(from: nil, to: Point(x: 0, y: 0)) == "\u{1B}[H")
        #expect(move(from: Point(x: 9, y: 2), to: Point(x: 0, y: 2)) == "\r")
        #expect(move(from: Point(x: 9, y: 2), to: Point(x: 1, y: 2)) == "\r\u{1B}[C")
        #expect(move(from: Point(x: 3, y: 2), to: Point(x: 7, y: 2)) == "\u{1B}[4C")
        #expect(move(from: Point(x: 30, y: 2), to: Point(x: 27, y: 2)) == "\u{1B}[3D")
        #expect(move(from: Point(x: 30, y: 2), to: Point(x: 1, y: 3)) == "\u{1B}E\u{1B}[C")
        #expect(move(from: Point(x: 3, y: 2), to: Point(x: 3, y: 2)) == "")
    }

    @Test func attributesChangeByTheShorterOfAResetAndTheDifference() {
        let accent = Self.renditions.resolve(.accent), selected = Self.renditions.resolve(.selected)
        #expect(Self.renditions.changes(from: accent, to: selected) == "7;39")
        #expect(Self.renditions.changes(from: selected, to: Self.renditions.resolve(.bold)) == "27")
        #expect(Self.renditions.changes(from: Self.renditions.resolve(.bold), to: .plain) == "22")
        #expect(Self.renditions.codes(selected) == "1;7")
    }

    @Test func aScrollIsFoundOnlyWhereItSparesRows() {
        // Rows 2...9 moved up by one, row 9 new: a shift of 1 over rows 2..<10.
        let changed = [false, false] + Array(repeating: true, count: 8) + [false, false]
        let shift = RowShift.find(changed: changed) { y, before in before == y + 1 && (2...8).contains(y) }
        #expect(shift == RowShift(region: 2..<10, distance: 1, kept: Set(2...8)))
        #expect(RowShift.find(changed: changed) { _, _ in false } == nil)
        let down = RowShift.find(changed: changed) { y, before in before == y - 2 && (4...9).contains(y) }
        #expect(down == RowShift(region: 2..<10, distance: -2, kept: Set(4...9)))
    }

    @Test func aRegionIsSetOnceAndScrolledByCountWhereTheTerminalCan() throws {
        let up = RowShift(region: 2..<10, distance: 1, kept: []),
            down = RowShift(region: 2..<10, distance: -2, kept: [])
        var counted = FrameBytes(attributes: Self.renditions)
        counted.scroll(up, counted: true)
        counted.scroll(down, counted: true)
        counted.wholeScreenScrolls()
        #expect(String(decoding: counted.bytes, as: UTF8.self) == "\u{1B}[3;10r\u{1B}[S\u{1B}[2T\u{1B}[r")
        var indexed = FrameBytes(attributes: Self.renditions, region: 2..<10)
        indexed.scroll(up, counted: false)
        indexed.scroll(down, counted: false)
        #expect(String(decoding: indexed.bytes, as: UTF8.self) == "\u{1B}[10H\u{1B}D\u{1B}[3H\u{1B}M\u{1B}M")
        #expect(indexed.region == 2..<10, "kept for the next frame")
    }
}

/// SplitMix64: the same run for the same seed.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
