/// Selection and scroll position of a grid whose column count follows the available width.
public struct GridState: SelectionState, Hashable {
    /// Items as last drawn (see ``follow(_:)``).
    public private(set) var count: Int
    public private(set) var selected: Int
    /// The frame whose layout was taken last.
    private var followed = FollowedFrame()
    public private(set) var columns: Int = 1
    /// First visible grid row.
    public private(set) var rowOffset: Int = 0
    public private(set) var visibleRows: Int = 1

    public init() { self.init(count: 0) }

    public init(count: Int, selected: Int = 0) {
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
        clamp()
        return true
    }

    /// Moves a row for the wheel.
    public mutating func wheel(down: Bool) { _ = handle(down ? .down : .up) }

    /// Selects item `index` (kept within the items once they are drawn).
    public mutating func select(_ index: Int) { selected = max(0, index) }

    /// Takes the item count, the rows in view and the scroll position `layout` drew, when it is
    /// from a frame not taken yet (keys that come faster than frames build on each other).
    public mutating func follow(_ layout: PaneLayout?) {
        guard let layout = followed.take(layout) else { return }
        count = layout.count
        columns = max(1, layout.columns)
        rowOffset = layout.firstRow
        visibleRows = max(1, layout.rowsShown)
        clamp()
    }

    /// This state for `count` items in `width` × `height` cells of cells of `cellSize`, scrolled so
    /// the selection is visible: what a frame draws.
    public func laidOut(count: Int, width: Int, height: Int, cellSize: Size) -> GridState {
        var state = self
        state.count = count
        state.clamp()
        state.columns = max(1, width / max(1, cellSize.width))
        state.visibleRows = max(1, height / max(1, cellSize.height))
        let row = state.selected / state.columns
        if row < state.rowOffset { state.rowOffset = row }
        if row >= state.rowOffset + state.visibleRows { state.rowOffset = row - state.visibleRows + 1 }
        state.rowOffset = max(0, min(state.rowOffset, max(0, state.rows - state.visibleRows)))
        return state
    }

    private mutating func clamp() {
        selected = count == 0 ? 0 : min(max(0, selected), count - 1)
    }
}

/// A grid of equal cells that reflows with the width; only visible cells are drawn, each
/// clickable as item `index` of `area`, and the layout is recorded under `area`.
@MainActor
public struct GridView: Widget {
    public typealias CellRenderer = (_ index: Int, _ rect: Rect, _ selected: Bool, _ buffer: inout Buffer) -> Void
    public var area: String
    public var count: Int
    public var state: GridState
    public var cellSize: Size
    public var cell: CellRenderer

    public init(area: String, count: Int, state: GridState, cellSize: Size, cell: @escaping CellRenderer) {
        self.area = area
        self.count = count
        self.state = state
        self.cellSize = cellSize
        self.cell = cell
    }

    /// Draws the visible cells, with a scroll bar on the right when not every row fits.
    public func render(in rect: Rect, buffer: inout Buffer) {
        var rect = rect
        var state = state.laidOut(count: count, width: rect.width, height: rect.height, cellSize: cellSize)
        if state.rows > state.visibleRows, rect.width > 2 {
            rect.width -= 1
            state = state.laidOut(count: count, width: rect.width, height: rect.height, cellSize: cellSize)
            let bar = ListState(
                count: state.rows, selected: min(state.rows - 1, state.rowOffset + state.visibleRows - 1)
            )
            .laidOut(count: state.rows, height: state.visibleRows)
            ListView.drawScrollBar(
                bar, in: Rect(x: rect.maxX, y: rect.y, width: 1, height: rect.height), buffer: &buffer)
        }
        buffer.record(
            PaneLayout(
                rect: rect, count: count, columns: state.columns, firstRow: state.rowOffset,
                rowsShown: state.visibleRows),
            as: area)
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
        drawNextRowsTop(state, in: rect, cellWidth: cellWidth, buffer: &buffer)
    }

    /// In the lines under the last whole row, the top of the next one, so the grid shows it goes
    /// on; a click there picks its cell (and scrolls to it).
    private func drawNextRowsTop(_ state: GridState, in rect: Rect, cellWidth: Int, buffer: inout Buffer) {
        let lines = rect.height - state.visibleRows * cellSize.height, next = state.rowOffset + state.visibleRows
        guard lines > 0, cellWidth > 0 else { return }
        for c in 0..<state.columns {
            let index = next * state.columns + c
            guard index < state.count else { return }
            var whole = Buffer(
                size: Size(width: cellWidth, height: cellSize.height), forScreenReader: buffer.forScreenReader)
            cell(index, Rect(size: whole.size), false, &whole)
            let top = Point(x: rect.x + c * cellWidth, y: rect.y + state.visibleRows * cellSize.height)
            buffer.addHit(Rect(x: top.x, y: top.y, width: cellWidth, height: lines), .item(area: area, index: index))
            buffer.blit(whole, from: Rect(x: 0, y: 0, width: cellWidth, height: lines), to: top)
        }
    }
}
