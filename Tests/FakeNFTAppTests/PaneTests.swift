import FakeNFTCore
import Testing
import FakeNFTTesting
import TerminalUI
@testable import FakeNFTApp

/// The screen kit's list: drawing reads it, and its keys act on what the last frame drew.
@MainActor @Suite struct PaneTests {
    /// A list of 100 numbered rows, nothing else.
    final class NumbersScreen: Screen {
        let title = "Numbers"
        let usage = UsageEvent.Screen.catalog
        let tasks = TaskBag()
        let pane = ListPane(area: "numbers", items: { (0..<100).map { "Row \($0)" } }, searchBy: { $0 })
        var layers: [KeyLayer] { pane.layers(with: []) }
        func render(in rect: Rect, buffer: inout Buffer) {
            let (_, list) = rect.rows(.length(2), .fill)
            pane.render(in: list, rowHeight: 1, buffer: &buffer) { row, _, area, _, buffer in
                buffer.draw(row, at: Point(x: area.x, y: area.y), maxWidth: area.width)
            }
        }
    }

    func frame(_ shell: AppShell, _ size: Size) -> Buffer {
        var buffer = Buffer(size: size)
        shell.render(into: &buffer)
        return buffer
    }

    @Test func drawingChangesNothingAndPagesAreWhatTheLastFrameShowed() throws {
        let screen = NumbersScreen()
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "Numbers", root: screen)], effects: .toastsOnly(), pictures: .placeholders())
        let small = frame(shell, Size(width: 60, height: 16))
        #expect(frame(shell, Size(width: 60, height: 16)) == small, "a second frame of the same state is the same")
        #expect(screen.pane.selection == ListState(), "drawing wrote nothing back")
        let shown = try #require(small.panes["numbers"]).rowsShown
        _ = shell.handle(.key(.pageDown))
        #expect(screen.pane.selected == "Row \(shown - 1)", "a page of the rows the 60×16 frame showed, less one")
        let tall = frame(shell, Size(width: 200, height: 60))
        let tallShown = try #require(tall.panes["numbers"]).rowsShown
        #expect(tallShown > shown)
        _ = shell.handle(.key(.pageDown))
        #expect(screen.pane.selected == "Row \(shown - 1 + tallShown - 1)", "then a page of the taller frame")
    }

    @Test func theWheelScrollsOnlyOverTheList() throws {
        let screen = NumbersScreen()
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "Numbers", root: screen)], effects: .toastsOnly(), pictures: .placeholders())
        let drawn = frame(shell, Size(width: 80, height: 24))
        let list = try #require(drawn.panes["numbers"]).rect
        _ = shell.handle(.mouse(MouseEvent(kind: .wheelDown, point: Point(x: list.x + 1, y: list.y - 1))))
        #expect(screen.pane.selection.offset == 0, "above the list")
        _ = shell.handle(.mouse(MouseEvent(kind: .wheelDown, point: Point(x: list.x + 1, y: list.y + 1))))
        #expect(screen.pane.selection.offset == 3 && screen.pane.selected == "Row 3")
        _ = shell.handle(.mouse(MouseEvent(kind: .wheelDown, point: Point(x: list.x + 1, y: list.y + 1))))
        #expect(screen.pane.selection.offset == 6, "a second turn before the next frame builds on the first")
        #expect(frame(shell, Size(width: 80, height: 24)).contains("Row 6"))
    }

    @Test func aSearchFiltersAndTheSelectionStaysAmongWhatIsShown() {
        let screen = NumbersScreen()
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "Numbers", root: screen)], effects: .toastsOnly(), pictures: .placeholders())
        _ = frame(shell, Size(width: 80, height: 24))
        _ = shell.handle(.key(.end))
        #expect(screen.pane.selected == "Row 99")
        screen.pane.beginSearch()
        for key in "w 4" { _ = shell.handle(.key(.char(key))) }  // "Row 4" and "Row 40" to "Row 49"
        #expect(
            screen.pane.shown == ["Row 4", "Row 40", "Row 41", "Row 42", "Row 43", "Row 44"]
                + (45...49).map { "Row \($0)" })
        #expect(screen.pane.selected == "Row 4", "a new query starts at its first match")
        _ = shell.handle(.key(.enter))  // keeps the query; the list takes the keys again
        _ = frame(shell, Size(width: 80, height: 24))
        _ = shell.handle(.key(.end))
        #expect(screen.pane.selected == "Row 49")
    }
}
