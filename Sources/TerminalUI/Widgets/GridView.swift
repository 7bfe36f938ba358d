/// Selection and scroll position of a grid whose column count follows the available width.
public struct GridState: Sendable, Hashable {
    public var count: Int { didSet { clamp() } }
    public private(set) var selected: Int
    public private(set) var columns: Int = 1
    /// First visible grid row.
    public private(set) var rowOffset: Int = 0
    public private(set) var visibleRows: Int = 1

    public init(count: Int = 0, selected: Int = 0) {
        self.count = count
        self.selected = selected
        clamp()
    }

    public var rows: Int { count == 0 ? 0 : (count + columns - 1) / columns }

    /// Every key the grid takes: ``handle(_:)`` and the help overlay both read this map (`l` is
    /// left free for screens).
    public static var keys: KeyMap<SelectionMove> {
        KeyMap(
            "grid",
            [
                KeyBinding([.left], WidgetText.moveLeft(), .left), KeyBinding([.right], WidgetText.moveRight(), .right),
            ] + SelectionMove.vertical)
    }

    /// 2-D navigation: arrows move by cell and by row, j/k by row; PgUp/PgDn by a screen; Home/End.
    public mutating func handle(_ key: Key) -> Bool {
        guard let move = Self.keys.action(for: key) else { return false }
        switch move {
        case .left: select(selected - 1)
        case .right: select(selected + 1)
        case .up: if selected - columns >= 0 { select(selected - columns) }
        case .down:
            if selected + columns < count {
                select(selected + columns)
            } else if selected / columns < rows - 1 {
                select(count - 1)
            }
        case .pageUp: select(max(selected % columns, selected - columns * max(1, visibleRows)))
        case .pageDown: select(min(count - 1, selected + columns * max(1, visibleRows)))
        case .first: select(0)
        case .last: select(count - 1)
        }
        return true
    }

    public mutating func select(_ index: Int) {
        selected = index
        clamp()
    }

    /// Computes columns for `width` and cells of `cellSize`, and scrolls the selection into view.
    public mutating func layout(width: Int, height: Int, cellSize: Size) {
        columns = max(1, width / max(1, cellSize.width))
        visibleRows = max(1, height / max(1, cellSize.height))
        let row = selected / columns
        if row < rowOffset { rowOffset = row }
        if row >= rowOffset + visibleRows { rowOffset = row - visibleRows + 1 }
        rowOffset = max(0, min(rowOffset, max(0, rows - visibleRows)))
    }

    private mutating func clamp() {
        selected = count == 0 ? 0 : min(max(0, selected), count - 1)
    }
}

/// A grid of equal cells that reflows with the width; only visible cells are drawn, each
/// clickable as item `index` of `area`.
@MainActor
public struct GridView: StatefulWidget {
    public typealias CellRenderer = (_ index: Int, _ rect: Rect, _ selected: Bool, _ buffer: inout Buffer) -> Void
    public var area: String
    public var cellSize: Size
    public var cell: CellRenderer

    public init(area: String, cellSize: Size, cell: @escaping CellRenderer) {
        self.area = area
        self.cellSize = cellSize
        self.cell = cell
    }

    /// Lays out `state` for `rect` and draws the visible cells, with a scroll bar on the right
    /// when not every row fits.
    public func render(in rect: Rect, buffer: inout Buffer, state: inout GridState) {
        state.layout(width: rect.width, height: rect.height, cellSize: cellSize)
        var rect = rect
        if state.rows > state.visibleRows, rect.width > 2 {
            rect.width -= 1
            state.layout(width: rect.width, height: rect.height, cellSize: cellSize)
            var bar = ListState(count: state.rows)
            bar.select(min(state.rows - 1, state.rowOffset + state.visibleRows - 1))
            bar.layout(height: state.visibleRows)
            ListView.drawScrollBar(
                bar, in: Rect(x: rect.maxX, y: rect.y, width: 1, height: rect.height), buffer: &buffer)
        }
        let cellWidth = rect.width / state.columns
        for r in 0..<state.visibleRows {
            for c in 0..<state.columns {
                let index = (state.rowOffset + r) * state.columns + c
                guard index < state.count else { return }
                let cellRect = Rect(
                    x: rect.x + c * cellWidth, y: rect.y + r * cellSize.height, width: cellWidth,
                    height: cellSize.height)
                buffer.addHit(cellRect, .item(area: area, index: index))  // first: controls the cell draws sit on top
                // The selection's place for a screen reader; the cell may refine it.
                if index == state.selected { buffer.focus = Point(x: cellRect.x, y: cellRect.y) }
                cell(index, cellRect, index == state.selected, &buffer)
            }
        }
    }
}
