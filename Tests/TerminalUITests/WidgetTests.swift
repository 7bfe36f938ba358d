import Testing
import FakeNFTTesting
@testable import TerminalUI

@MainActor @Suite struct ListTests {
    func renderList(_ state: inout ListState, size: Size) -> CellSurface {
        let surface = CellSurface(size: size)
        ListView.render(&state, in: Rect(x: 0, y: 1, width: size.width, height: size.height - 1), surface: surface) { index, rect, selected in
            surface.draw(DisplayWidth.pad("Row \(index)", to: rect.width), at: Point(x: rect.x, y: rect.y),
                         style: selected ? .selected : .plain, maxWidth: rect.width)
        }
        surface.draw("selected \(state.selected) of \(state.count)", at: Point(x: 0, y: 0))
        return surface
    }

    @Test func scrollsAtTheEdges() {
        var state = ListState(count: 100_000)
        _ = renderList(&state, size: Size(width: 80, height: 24))
        let handledUp = state.handle(.up)
        #expect(handledUp)
        #expect(state.selected == 0 && state.offset == 0)           // top edge: stays
        for _ in 0..<23 { _ = state.handle(.down) }
        _ = renderList(&state, size: Size(width: 80, height: 24))
        #expect(state.selected == 23 && state.offset == 1)          // scrolled by one row past the bottom
        _ = state.handle(.end)
        let end = renderList(&state, size: Size(width: 80, height: 24))
        #expect(state.selected == 99_999 && state.offset == 100_000 - 23)
        _ = state.handle(.down)
        #expect(state.selected == 99_999)                           // bottom edge: stays
        assertSnapshot(end.text(), named: "list-end-80x24")
        _ = state.handle(.pageUp)
        #expect(state.selected == 99_999 - 22)
        _ = state.handle(.home)
        let home = renderList(&state, size: Size(width: 120, height: 40))
        assertSnapshot(home.text(), named: "list-home-120x40")
    }

    @Test func mouseClickSelectsAndWheelScrolls() {
        var state = ListState(count: 50)
        let rect = Rect(x: 0, y: 1, width: 80, height: 10)
        state.layout(height: 10)
        let clicked = state.handle(MouseEvent(kind: .click, point: Point(x: 3, y: 5)), in: rect)
        #expect(clicked && state.selected == 4)
        let wheeled = state.handle(MouseEvent(kind: .wheelDown, point: Point(x: 3, y: 5)), in: rect)
        #expect(wheeled && state.offset == 3 && state.selected == 4)
        let outside = state.handle(MouseEvent(kind: .click, point: Point(x: 3, y: 20)), in: rect)
        #expect(!outside)
    }

    @Test func emptyListIsSafe() {
        var state = ListState(count: 0)
        let handled = state.handle(.down)
        #expect(handled && state.selected == 0)
        #expect(renderList(&state, size: Size(width: 20, height: 5)).line(1).trimmingCharacters() == "")
    }
}

@MainActor @Suite struct GridTests {
    func renderGrid(_ state: inout GridState, size: Size) -> CellSurface {
        let surface = CellSurface(size: size)
        GridView.render(&state, in: Rect(size: size), cellSize: Size(width: 20, height: 3), surface: surface) { index, rect, selected in
            surface.box(rect.inset(dx: 0, dy: 0), title: nil, style: selected ? .bold : .dim)
            surface.draw(selected ? "▶ NFT \(index)" : "NFT \(index)", at: Point(x: rect.x + 2, y: rect.y + 1), maxWidth: rect.width - 4)
        }
        return surface
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

    @Test func navigatesInTwoDimensions() {
        var state = GridState(count: 11)
        state.layout(width: 80, height: 24, cellSize: Size(width: 20, height: 3))   // 4 columns
        _ = state.handle(.down); #expect(state.selected == 4)
        _ = state.handle(.right); #expect(state.selected == 5)
        _ = state.handle(.down); #expect(state.selected == 9)
        _ = state.handle(.down); #expect(state.selected == 9)                        // no row below column 1
        _ = state.handle(.right); _ = state.handle(.right); #expect(state.selected == 10)
        _ = state.handle(.up); #expect(state.selected == 6)
        _ = state.handle(.up); _ = state.handle(.up); #expect(state.selected == 2)
        _ = state.handle(.end); #expect(state.selected == 10)
        #expect(state.index(at: Point(x: 25, y: 4), in: Rect(x: 0, y: 0, width: 80, height: 24), cellSize: Size(width: 20, height: 3)) == 5)
    }
}

@MainActor @Suite struct DialogTests {
    @Test func focusAndKeys() {
        var dialog = ConfirmDialog(title: "Remove", message: "Are you sure you want to remove this item from the cart?",
                                   confirmLabel: "Delete", cancelLabel: "Cancel", destructive: true)
        #expect(!dialog.confirmFocused)
        #expect(dialog.handle(.enter) == .cancelled)          // Cancel has focus at first: Enter is safe
        #expect(dialog.handle(.right) == nil)
        #expect(dialog.confirmFocused)
        let surface = CellSurface(size: Size(width: 80, height: 24))
        dialog.render(in: Rect(size: surface.size), surface: surface, pictureSize: Size(width: 8, height: 4)) { rect in
            surface.fill(rect, with: "▀", style: .plain)
        }
        assertSnapshot(surface.text(), named: "dialog-80x24")
        #expect(dialog.handle(.enter) == .confirmed)
        #expect(dialog.handle(.tab) == nil)
        #expect(!dialog.confirmFocused)
        #expect(dialog.handle(.char("y")) == .confirmed)
        #expect(dialog.handle(.char("n")) == .cancelled)
        #expect(dialog.handle(.escape) == .cancelled)
    }

    @Test func actionSheetChoosesAndDismisses() {
        var sheet = ActionSheet(title: "Sort", options: ["By price", "By rating", "By name"], current: 2)
        #expect(sheet.list.selected == 2)
        #expect(sheet.handle(.up) == nil)
        #expect(sheet.handle(.enter) == .chosen(1))
        #expect(sheet.handle(.char("1")) == .chosen(0))
        #expect(sheet.handle(.escape) == .dismissed)
        let surface = CellSurface(size: Size(width: 80, height: 24))
        sheet.render(in: Rect(size: surface.size), surface: surface)
        assertSnapshot(surface.text(), named: "action-sheet-80x24")
    }
}

@MainActor @Suite struct OverlayTests {
    @Test func tooSmallScreenSaysWhatIsNeeded() {
        let surface = CellSurface(size: Size(width: 30, height: 8))
        TooSmallScreen.render(need: Size(width: 60, height: 16), have: surface.size, surface: surface)
        #expect(surface.contains("60×16"))
        assertSnapshot(surface.text(), named: "too-small-30x8")
    }

    @Test func tabBarShowsBadges() {
        let surface = CellSurface(size: Size(width: 80, height: 1))
        let rects = TabBar.render([.init(title: "Catalog"), .init(title: "Cart", badge: 3), .init(title: "Profile")],
                                  selected: 1, in: Rect(size: surface.size), surface: surface)
        #expect(surface.line(0).hasPrefix(" 1 Catalog   2 Cart [3]   3 Profile"))
        #expect(rects.count == 3 && rects[1].contains(Point(x: 14, y: 0)))
        #expect(surface[13, 0].style == .selected)
    }
}

extension String {
    func trimmingCharacters() -> String { filter { $0 != " " } }
}
