import Testing
import FakeNFTSnapshots
import FakeNFTTesting
@testable import TerminalUI

@MainActor @Suite struct ListTests {
    /// Draws a list of `state.count` rows, then has `state` follow the frame, as a key's layer does.
    func renderList(_ state: inout ListState, size: Size) -> Buffer {
        var buffer = Buffer(size: size)
        let list = ListView(area: "list", count: state.count, state: state) { index, rect, selected, buffer in
            buffer.draw(
                DisplayWidth.pad("Row \(index)", to: rect.width), at: Point(x: rect.x, y: rect.y),
                style: selected ? .selected : .plain, maxWidth: rect.width)
        }
        buffer.render(list, in: Rect(x: 0, y: 1, width: size.width, height: size.height - 1))
        state.follow(buffer.panes["list"])
        buffer.draw("selected \(state.selected) of \(state.count)", at: Point(x: 0, y: 0))
        return buffer
    }

    @Test func scrollsAtTheEdges() {
        var state = ListState(count: 100_000)
        _ = renderList(&state, size: Size(width: 80, height: 24))
        let handledUp = state.handle(.up)
        #expect(handledUp)
        #expect(state.selected == 0 && state.offset == 0)  // top edge: stays
        for _ in 0..<23 { _ = state.handle(.down) }
        _ = renderList(&state, size: Size(width: 80, height: 24))
        #expect(state.selected == 23 && state.offset == 1)  // scrolled by one row past the bottom
        _ = state.handle(.end)
        let end = renderList(&state, size: Size(width: 80, height: 24))
        #expect(state.selected == 99_999 && state.offset == 100_000 - 23)
        _ = state.handle(.down)
        #expect(state.selected == 99_999)  // bottom edge: stays
        assertSnapshot(end.text(), named: "list-end-80x24")
        _ = state.handle(.pageUp)
        #expect(state.selected == 99_999 - 22)
        _ = state.handle(.home)
        let home = renderList(&state, size: Size(width: 120, height: 40))
        assertSnapshot(home.text(), named: "list-home-120x40")
    }

    /// The wheel scrolls and drags the selection along.
    @Test func wheelScrollsAndDragsTheSelection() {
        var state = ListState(count: 50)
        _ = renderList(&state, size: Size(width: 80, height: 11))
        state.wheel(down: true)
        #expect(state.offset == 3 && state.selected == 3)
        state.wheel(down: false)
        #expect(state.offset == 0 && state.selected == 3)
    }

    /// "The last" of a list still loading: the last row now, and the last again as more arrive
    /// (frame after frame, no task writing the selection), until another move.
    @Test func theLastFollowsTheEndUntilAnotherMove() {
        var state = ListState(count: 20, selected: 3)
        state.selectLast()
        #expect(state.selected == 19 && state.followsEnd)
        for count in [40, 60, 1_000] {
            var buffer = Buffer(size: Size(width: 20, height: 12))
            buffer.render(
                ListView(area: "list", count: count, state: state) { _, _, _, _ in },
                in: Rect(x: 0, y: 0, width: 20, height: 12))
            state.follow(buffer.panes["list"])
            #expect(state.selected == count - 1, "the last of \(count)")
        }
        _ = state.handle(.char("g"))
        #expect(state.selected == 0 && !state.followsEnd)
        var buffer = Buffer(size: Size(width: 20, height: 12))
        buffer.render(
            ListView(area: "list", count: 2_000, state: state) { _, _, _, _ in },
            in: Rect(x: 0, y: 0, width: 20, height: 12))
        state.follow(buffer.panes["list"])
        #expect(state.selected == 0, "g stopped the following")
    }

    /// Drawing reads the state and never changes it: what it laid out is in the frame.
    @Test func drawingLeavesTheStateAsItWas() {
        let state = ListState(count: 60, selected: 40)
        var buffer = Buffer(size: Size(width: 20, height: 6))
        buffer.render(
            ListView(area: "list", count: 60, state: state) { _, _, _, _ in },
            in: Rect(x: 0, y: 1, width: 20, height: 5))
        #expect(state == ListState(count: 60, selected: 40) && state.offset == 0 && state.pageSize == 10)
        #expect(
            buffer.panes["list"]
                == PaneLayout(rect: Rect(x: 0, y: 1, width: 20, height: 5), count: 60, firstRow: 36, rowsShown: 5))
        var followed = state
        followed.follow(buffer.panes["list"])
        _ = followed.handle(.pageDown)
        #expect(followed.selected == 44 && followed.count == 60, "a page of the 5 rows drawn, less one")
    }

    /// Rows drawn are clickable as their index, with the scroll offset and the row height.
    @Test func rowsAreClickableAsTheirIndex() {
        var state = ListState(count: 100, selected: 80)
        var buffer = Buffer(size: Size(width: 30, height: 10))
        buffer.render(
            ListView(area: "tall", count: 100, state: state, rowHeight: 3) { _, _, _, _ in },
            in: Rect(x: 0, y: 1, width: 30, height: 9))
        state.follow(buffer.panes["tall"])
        #expect(state.offset > 0)
        #expect(buffer.target(at: Point(x: 5, y: 1)) == .item(area: "tall", index: state.offset))
        #expect(
            buffer.target(at: Point(x: 5, y: 6)) == .item(area: "tall", index: state.offset + 1),
            "row height 3: the second row")
        #expect(buffer.target(at: Point(x: 5, y: 0)) == nil)
    }

    /// Rows that end with a blank line: the last row in view goes without it, so 3 rows of 2
    /// lines and a blank fit in 8 lines whole, cut to the list, with no scroll bar; a fourth
    /// scrolls.
    @Test func theLastRowInViewGoesWithoutItsGap() {
        for count in [3, 4] {
            var buffer = Buffer(size: Size(width: 20, height: 10))
            buffer.draw("below", at: Point(x: 0, y: 9))
            var rects: [Rect] = []
            buffer.render(
                ListView(area: "gapped", count: count, state: ListState(count: count), rowHeight: 3, gap: 1) {
                    index, rect, _, buffer in
                    rects.append(rect)
                    buffer.draw("Row \(index)", at: Point(x: rect.x, y: rect.y))
                    buffer.draw("line 2", at: Point(x: rect.x, y: rect.y + 1))
                },
                in: Rect(x: 0, y: 1, width: 20, height: 8))
            #expect(rects.count == 3 && rects.allSatisfy { $0.maxY <= 9 } && rects.last?.height == 2)
            #expect((1...8).map { buffer.line($0).trimmingCharacters() }.filter { $0.hasPrefix("Row") }.count == 3)
            #expect(buffer.line(8).contains("line 2") && buffer.line(9).hasPrefix("below"))
            #expect(buffer.line(1).contains("┃") == (count == 4), "a scroll bar only when a row is out of view")
        }
    }

    @Test func emptyListIsSafe() {
        var state = ListState(count: 0)
        let handled = state.handle(.down)
        #expect(handled && state.selected == 0)
        #expect(renderList(&state, size: Size(width: 20, height: 5)).line(1).trimmingCharacters() == "")
    }
}

@MainActor @Suite struct GridTests {
    /// Draws a grid of `state.count` cells, then has `state` follow the frame, as a key's layer does.
    func renderGrid(_ state: inout GridState, size: Size) -> Buffer {
        var buffer = Buffer(size: size)
        let grid = GridView(area: "grid", count: state.count, state: state, cellSize: Size(width: 20, height: 3)) {
            index, rect, selected, buffer in
            buffer.render(Block(style: selected ? .bold : .dim), in: rect)
            buffer.draw(
                selected ? "▶ NFT \(index)" : "NFT \(index)", at: Point(x: rect.x + 2, y: rect.y + 1),
                maxWidth: rect.width - 4)
        }
        buffer.render(grid, in: Rect(size: size))
        state.follow(buffer.panes["grid"])
        return buffer
    }

    @Test func reflowsWithWidth() {
        var state = GridState(count: 11, selected: 5)
        let narrow = renderGrid(&state, size: Size(width: 80, height: 24))
        #expect(state.columns == 4)
        assertSnapshot(narrow.text(), named: "grid-80x24")
        let wide = renderGrid(&state, size: Size(width: 120, height: 40))
        #expect(state.columns == 6)
        #expect(state.selected == 5)
        assertSnapshot(wide.text(), named: "grid-120x40")
    }

    /// Each cell drawn is clickable as its index, scroll included; a grid that scrolls shows a bar.
    @Test func cellsAreClickableAsTheirIndex() {
        var state = GridState(count: 40, selected: 30)
        let buffer = renderGrid(&state, size: Size(width: 80, height: 9))  // 3 rows of cells fit: scrolled
        #expect(state.rowOffset > 0 && state.columns == 3, "one column fewer: the last one holds the scroll bar")
        let cellWidth = 79 / state.columns
        #expect(
            buffer.target(at: Point(x: cellWidth + 1, y: 1))
                == .item(area: "grid", index: state.rowOffset * state.columns + 1))
        #expect(
            buffer.target(at: Point(x: 2 * cellWidth + 1, y: 8))
                == .item(area: "grid", index: (state.rowOffset + 2) * state.columns + 2))
        #expect(buffer.target(at: Point(x: 79, y: 8)) == nil && "┃│".contains(buffer[79, 4].text))
    }

    @Test func navigatesInTwoDimensions() {
        var state = GridState(count: 11)
        _ = renderGrid(&state, size: Size(width: 80, height: 24))  // 4 columns
        _ = state.handle(.down)
        #expect(state.selected == 4)
        _ = state.handle(.right)
        #expect(state.selected == 5)
        _ = state.handle(.down)
        #expect(state.selected == 9)
        _ = state.handle(.down)
        #expect(state.selected == 9)  // no row below column 1
        _ = state.handle(.right)
        _ = state.handle(.right)
        #expect(state.selected == 10)
        _ = state.handle(.up)
        #expect(state.selected == 6)
        _ = state.handle(.up)
        _ = state.handle(.up)
        #expect(state.selected == 2)
        _ = state.handle(.end)
        #expect(state.selected == 10)
    }
}

@MainActor @Suite struct DialogTests {
    @Test func focusAndKeys() {
        var dialog = ConfirmDialog(
            title: "Remove", message: "Are you sure you want to remove this item from the cart?",
            confirmLabel: "Delete", cancelLabel: "Cancel", destructive: true)
        #expect(!dialog.confirmFocused)
        #expect(dialog.handle(.enter) == .cancelled)  // Cancel has focus at first: Enter is safe
        #expect(dialog.handle(.right) == nil)
        #expect(dialog.confirmFocused)
        var buffer = Buffer(size: Size(width: 80, height: 24))
        buffer.render(
            dialog.picturing(Size(width: 8, height: 4)) { rect, buffer in buffer.fill(rect, with: "▀", style: .plain) },
            in: Rect(size: buffer.size))
        let buttons = buffer.hits.map(\.target)
        #expect(buttons == [.key(.char("y")), .key(.escape)], "both buttons are clickable as their first keys")
        assertSnapshot(buffer.text(), named: "dialog-80x24")
        #expect(dialog.handle(.enter) == .confirmed)
        #expect(dialog.handle(.tab) == nil)
        #expect(!dialog.confirmFocused)
        #expect(dialog.handle(.char("y")) == .confirmed)
        #expect(dialog.handle(.char("n")) == .cancelled)
        #expect(dialog.handle(.escape) == .cancelled)
    }

    @Test func actionSheetChoosesAndDismisses() {
        _ = widgetWords
        var sheet = ActionSheet(title: "Sort", options: ["By price", "By rating", "By name"], current: 2)
        #expect(sheet.list.selected == 2)
        #expect(sheet.handle(.up) == nil)
        #expect(sheet.handle(.enter) == .chosen(1))
        #expect(sheet.handle(.char("1")) == .chosen(0))
        #expect(sheet.handle(.escape) == .dismissed)
        var buffer = Buffer(size: Size(width: 80, height: 24))
        buffer.render(sheet, in: Rect(size: buffer.size))
        assertSnapshot(buffer.text(), named: "action-sheet-80x24")
    }
}

@MainActor @Suite struct OverlayTests {
    @Test func tooSmallScreenSaysWhatIsNeeded() {
        _ = widgetWords
        var buffer = Buffer(size: Size(width: 30, height: 8))
        buffer.render(TooSmallScreen(need: Size(width: 60, height: 16)), in: Rect(size: buffer.size))
        #expect(buffer.contains("60×16"))
        assertSnapshot(buffer.text(), named: "too-small-30x8")
    }

    @Test func tabBarShowsBadges() {
        var buffer = Buffer(size: Size(width: 80, height: 1))
        let tabs = TabBar(
            [.init(title: "Catalog"), .init(title: "Cart", badge: 3), .init(title: "Profile")], selected: 1)
        buffer.render(tabs, in: Rect(size: buffer.size))
        #expect(buffer.line(0).hasPrefix(" 1 Catalog   2 Cart [3]   3 Profile"))
        #expect(buffer.target(at: Point(x: 14, y: 0)) == .item(area: TabBar.area, index: 1))
        #expect(tabs.width == DisplayWidth.of(" 1 Catalog   2 Cart [3]   3 Profile "))
        #expect(buffer[13, 0].style == .selected)
    }
}

extension String {
    func trimmingCharacters() -> String { filter { $0 != " " } }
}

@Suite struct LayoutTests {
    @Test func rowsAndColumnsShareWhatFixedPartsLeave() {
        let rect = Rect(x: 2, y: 3, width: 80, height: 24)
        let (header, body, footer) = rect.rows(.length(2), .fill, .length(1))
        #expect(
            [header, body, footer] == [
                Rect(x: 2, y: 3, width: 80, height: 2), Rect(x: 2, y: 5, width: 80, height: 21),
                Rect(x: 2, y: 26, width: 80, height: 1),
            ])
        let (left, middle, right) = rect.columns(.fill, .length(10), .fill)
        #expect([left.width, middle.width, right.width] == [35, 10, 35])
        let (a, b, c) = rect.columns(.fill, .fill, .fill)
        #expect([a.width, b.width, c.width] == [27, 27, 26], "odd cells go to the first fills")
        let (first, second, rest) = rect.columns(.length(50), .length(50), .fill)
        #expect([first.width, second.width, rest.width] == [50, 30, 0], "fixed parts shrink when space runs out")
        let (top, bottom) = Rect(x: 0, y: 0, width: 0, height: 0).rows(.length(3), .fill)
        #expect(top.isEmpty && bottom.isEmpty)
        let (marker, picture, gap, text, price) = rect.columns(.length(2), .length(6), .length(2), .fill, .length(16))
        #expect([marker.x, picture.x, gap.x, text.x, price.x] == [2, 4, 10, 12, 66] && text.width == 54)
        let (list, detail) = rect.columns(.fill, .length(30))
        #expect(list.width == 50 && detail.x == 52 && list.height == 24 && detail.y == 3)
    }
}

/// Character art through libchafa: a picture whose left half is red and right half blue is
/// drawn with red cells on the left and blue cells on the right.
@Suite struct CharacterArtTests {
    static func halves(width: Int, height: Int) -> [UInt8] {
        (0..<(width * height)).flatMap { i -> [UInt8] in i % width < width / 2 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
    }

    /// The xterm 256-colour cube entry's red and blue levels (0-5).
    static func levels(_ color: Color) -> (red: Int, blue: Int)? {
        guard case .indexed(let n) = color, n >= 16, n < 232 else { return nil }
        let i = Int(n) - 16
        return (i / 36, i % 6)
    }

    @Test func leftRedRightBlue() {
        let cells = CharacterArt.cells(
            rgba: Self.halves(width: 64, height: 64), width: 64, height: 64, columns: 16, rows: 8, palette: .indexed240)
        #expect(cells.count == 16 * 8)
        for row in 0..<8 {
            let left = cells[row * 16 + 2], right = cells[row * 16 + 13]
            for (cell, red) in [(left, true), (right, false)] {
                let shown =
                    cell.text == " "
                    ? [cell.style.background]
                    : cell.text == "█"
                        ? [cell.style.foreground]
                        : [cell.style.foreground, cell.style.background]
                let colours = shown.compactMap(Self.levels)
                #expect(
                    !colours.isEmpty
                        && colours.allSatisfy { red ? $0.red > 3 && $0.blue < 2 : $0.blue > 3 && $0.red < 2 }, "\(cell)"
                )
            }
        }
    }

    /// Proportions are kept: a square picture in a wide box is centred on its edge colour.
    @Test func proportionsAreKept() {
        // A white square with a black centre, in a box twice as wide as it is tall (in pixels).
        var square = [UInt8](repeating: 255, count: 32 * 32 * 4)
        for y in 12..<20 {
            for x in 12..<20 {
                let i = (y * 32 + x) * 4
                square[i] = 0
                square[i + 1] = 0
                square[i + 2] = 0
            }
        }
        let cells = CharacterArt.cells(rgba: square, width: 32, height: 32, columns: 16, rows: 4, palette: .indexed240)
        #expect(cells.count == 64)
        let dark = (0..<64).filter { i in
            let cell = cells[i]
            let shown = cell.text == " " ? [cell.style.background] : [cell.style.foreground, cell.style.background]
            return shown.contains {
                if case .indexed(let n) = $0 { return n == 16 || (232...236).contains(n) } else { return false }
            }
        }.map { $0 % 16 }
        #expect(
            !dark.isEmpty && dark.allSatisfy { (6...9).contains($0) }, "the centre stays in the middle columns: \(dark)"
        )
    }

    /// Sextants are used when asked for, and a terminal's own cell shape keeps pictures square.
    @Test func sextantsAndTheCellShape() {
        // A checker of 2×2-pixel squares, 2 across and 3 down in each 4×6-pixel cell: sextant material.
        let w = 48, h = 48
        let stripes = (0..<(w * h)).flatMap { i -> [UInt8] in
            ((i % w) % 4 / 2 + (i / w) % 6 / 2) % 2 == 0 ? [255, 255, 255, 255] : [0, 0, 0, 255]
        }
        let blocks = CharacterArt.cells(
            rgba: stripes, width: w, height: h, columns: 12, rows: 8, palette: .indexed240, symbols: .blocks)
        let sextants = CharacterArt.cells(
            rgba: stripes, width: w, height: h, columns: 12, rows: 8, palette: .indexed240, symbols: .sextants)
        func isSextant(_ cell: Cell) -> Bool {
            cell.text.unicodeScalars.first.map { (0x1FB00...0x1FB3B).contains($0.value) } ?? false
        }
        #expect(!blocks.contains(where: isSextant))
        #expect(sextants.contains(where: isSextant))
        // Square cells (aspect 1): a square picture fills a square box, with no side field.
        let square = CharacterArt.cells(
            rgba: Self.halves(width: 32, height: 32), width: 32, height: 32, columns: 8, rows: 8,
            palette: .indexed240, cellAspect: 1)
        #expect(
            Self.levels(square[0].style.background)?.red ?? 0 > 3
                || Self.levels(square[0].style.foreground)?.red ?? 0 > 3,
            "the first cell is the picture's red, not a field")
    }

    /// A footer too narrow for every hint shows whole hints only: the screen's main one (its
    /// first), the kept ones (back, help, quit) as far as they fit, then the screen's others.
    @MainActor @Test func keyHintsAreWholeAndTheKeptOnesStay() {
        let hints = [
            KeyHint("l", "like"), KeyHint("c", "cart"), KeyHint("Enter", "open the NFT"), KeyHint("Esc", "back"),
            KeyHint("?", "help"),
        ]
        var buffer = Buffer(size: Size(width: 32, height: 1))
        buffer.render(KeyHintBar(hints, keepingLast: 2), in: Rect(x: 0, y: 0, width: 32, height: 1))
        #expect(buffer.line(0).trimmingCharacters(in: .whitespaces) == "l like  c cart  Esc back  ? help")
        var narrow = Buffer(size: Size(width: 16, height: 1))
        narrow.render(KeyHintBar(hints, keepingLast: 2), in: Rect(x: 0, y: 0, width: 16, height: 1))
        #expect(narrow.line(0).trimmingCharacters(in: .whitespaces) == "l like  Esc back")
        var narrower = Buffer(size: Size(width: 5, height: 1))
        narrower.render(KeyHintBar(hints, keepingLast: 2), in: Rect(x: 0, y: 0, width: 5, height: 1))
        #expect(narrower.line(0).trimmingCharacters(in: .whitespaces).isEmpty, "no hint fits whole: none")
    }
}

/// Where a screen reader is led: the frame's focus (the terminal cursor's place without a field).
@MainActor @Suite struct FocusTests {
    @Test func aListFocusesTheSelectedRowsStart() {
        var state = ListState(count: 10, selected: 3)
        var buffer = Buffer(size: Size(width: 20, height: 8))
        buffer.render(
            ListView(area: "list", count: 10, state: state, rowHeight: 2) { _, _, _, _ in },
            in: Rect(x: 2, y: 1, width: 18, height: 7))
        state.follow(buffer.panes["list"])
        #expect(buffer.focus == Point(x: 2, y: 1 + 2 * (3 - state.offset)))
    }

    @Test func aToastTakesTheFocusWhileShown() {
        var buffer = Buffer(size: Size(width: 40, height: 10))
        buffer.focus = Point(x: 0, y: 2)
        buffer.render(Toast("Saved"), in: Rect(x: 0, y: 0, width: 40, height: 10))
        let focus = buffer.focus
        #expect(focus?.y == 9 && buffer.line(9).dropFirst(focus?.x ?? 0).hasPrefix(" ✓ Saved"), "\(buffer.line(9))")
    }

    @Test func helpIsReadFromItsTop() {
        var buffer = Buffer(size: Size(width: 60, height: 20))
        buffer.focus = Point(x: 0, y: 5)
        buffer.render(
            HelpOverlay(title: "Help", sections: [("Keys", [HelpEntry(keys: "q", text: "Quit")])]),
            in: Rect(x: 0, y: 0, width: 60, height: 20))
        let focus = buffer.focus ?? Point(x: 0, y: 0)
        #expect(buffer.line(focus.y).dropFirst(focus.x).hasPrefix("Keys"), "\(buffer.line(focus.y))")
    }

    @Test func aDialogFocusesTheButtonEnterPresses() {
        var dialog = ConfirmDialog(title: "Remove", message: "Sure?", confirmLabel: "Delete", cancelLabel: "Cancel")
        for expected in ["[ Cancel ]", "[ Delete ]"] {
            var buffer = Buffer(size: Size(width: 60, height: 20))
            buffer.render(dialog, in: Rect(x: 0, y: 0, width: 60, height: 20))
            let focus = buffer.focus ?? Point(x: 0, y: 0)
            #expect(buffer.line(focus.y).dropFirst(focus.x).hasPrefix(expected), "\(buffer.line(focus.y))")
            _ = dialog.handle(.left)
        }
    }
}

@MainActor @Suite struct LabelTests {
    @Test func aLabelIsCutToItsRectAndEndsAtItsRightEndWhenTrailing() {
        var buffer = Buffer(size: Size(width: 12, height: 2))
        buffer.render(Label("Total 12.5 ETH"), in: Rect(x: 1, y: 0, width: 8, height: 1))
        buffer.render(Label("Pay", alignment: .trailing), in: Rect(x: 0, y: 1, width: 10, height: 1))
        #expect(buffer.line(0).hasPrefix(" Total"))
        #expect(buffer.line(0).hasSuffix("   "), "nothing past the label's 8 columns")
        #expect(buffer.line(1) == "       Pay  ")
    }

    @Test func aLabelInNoRoomDrawsNothing() {
        var buffer = Buffer(size: Size(width: 10, height: 2))
        buffer.render(Label("Hidden"), in: Rect(x: 0, y: 0, width: 10, height: 0))
        buffer.render(Label("Hidden"), in: Rect(x: 0, y: 1, width: 0, height: 1))
        #expect(!buffer.contains("H"))
    }

    @Test func aButtonIsClickedAsItsKeyOverTheCellsItDrew() {
        var buffer = Buffer(size: Size(width: 20, height: 1))
        buffer.render(Button("Pay", style: .selected, key: .char("p")), in: Rect(x: 2, y: 0, width: 10, height: 1))
        #expect(buffer.target(at: Point(x: 2, y: 0)) == .key(.char("p")))
        #expect(buffer.target(at: Point(x: 4, y: 0)) == .key(.char("p")))
        #expect(buffer.target(at: Point(x: 5, y: 0)) == nil)
        var plain = Buffer(size: Size(width: 20, height: 1))
        plain.render(Button("Pay", style: .selected, key: nil), in: Rect(x: 0, y: 0, width: 10, height: 1))
        #expect(plain.contains("Pay"))
        #expect(plain.target(at: Point(x: 0, y: 0)) == nil)
    }
}
