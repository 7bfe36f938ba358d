/// Selection and scroll position of a list. Works for any number of rows: nothing here
/// depends on the row count beyond clamping.
public struct ListState: SelectionState, Hashable {
    /// Items as last drawn (see ``follow(_:)``).
    public private(set) var count: Int
    public private(set) var selected: Int
    /// Set by ``selectLast()``: the last item stays selected as items arrive, until another move.
    public private(set) var followsEnd = false
    /// The frame whose layout was taken last.
    private var followed = FollowedFrame()
    public private(set) var offset: Int = 0
    /// Rows visible in the last layout; PgUp/PgDn move by this much.
    public private(set) var pageSize: Int = 10

    public init() { self.init(count: 0) }

    public init(count: Int, selected: Int = 0) {
        self.count = count
        self.selected = selected
        clamp()
    }

    /// Every key the list takes: ``handle(_:)`` and the help overlay both read this map.
    public static var keys: KeyMap<SelectionMove> { KeyMap("list", SelectionMove.vertical) }

    /// Moves the selection for the list's keys (arrows, j/k, PgUp/PgDn, Ctrl-B/F, Home/End, g/G
    /// unless remapped). Returns false when the key is not a list key.
    public mutating func handle(_ key: Key) -> Bool {
        guard let move = Self.keys.action(for: key) else { return false }
        followsEnd = false
        switch move {
        case .up: select(selected - 1)
        case .down: select(selected + 1)
        case .pageUp: select(selected - max(1, pageSize - 1))
        case .pageDown: select(selected + max(1, pageSize - 1))
        case .first: select(0)
        case .last: select(count - 1)
        case .left, .right: return false
        }
        clamp()
        return true
    }

    /// Scrolls three rows for the wheel.
    public mutating func wheel(down: Bool) {
        followsEnd = false
        scroll(by: down ? 3 : -3)
    }

    /// Selects item `index` (kept within the items once they are drawn: the count the last frame
    /// drew may be behind what the caller knows).
    public mutating func select(_ index: Int) {
        followsEnd = false
        selected = max(0, index)
    }

    /// Selects the last item, and the last again whenever more arrive (a list loaded page by
    /// page), until the selection moves otherwise: what the frame draws and the keys act on.
    public mutating func selectLast() {
        followsEnd = true
        selected = max(0, count - 1)
    }

    /// Takes the item count, the rows in view and the scroll position `layout` drew, when it is
    /// from a frame not taken yet (keys that come faster than frames build on each other).
    public mutating func follow(_ layout: PaneLayout?) {
        guard let layout = followed.take(layout) else { return }
        count = layout.count
        pageSize = max(1, layout.rowsShown)
        offset = layout.firstRow
        if followsEnd { selected = max(0, count - 1) }
        clamp()
    }

    /// Scrolls the view (and drags the selection along so it stays visible).
    public mutating func scroll(by rows: Int) {
        offset = max(0, min(offset + rows, max(0, count - pageSize)))
        if selected < offset { selected = offset }
        if selected >= offset + pageSize { selected = offset + pageSize - 1 }
        clamp()
    }

    /// This state for `count` items in a viewport of `height` rows, scrolled so the selection
    /// is visible: what a frame draws.
    public func laidOut(count: Int, height: Int) -> ListState {
        var state = self
        state.count = count
        if followsEnd { state.selected = max(0, count - 1) }
        state.clamp()
        state.pageSize = max(1, height)
        if state.selected < state.offset { state.offset = state.selected }
        if state.selected >= state.offset + state.pageSize { state.offset = state.selected - state.pageSize + 1 }
        state.offset = max(0, min(state.offset, max(0, count - state.pageSize)))
        return state
    }

    /// Indices of the rows in view, as laid out.
    public var visibleRange: Range<Int> { offset..<min(count, offset + pageSize) }

    private mutating func clamp() {
        selected = count == 0 ? 0 : min(max(0, selected), count - 1)
    }
}

/// A list: only the rows in view are drawn, so the cost does not grow with the data. Each row
/// drawn is clickable as item `index` of `area`, and the layout is recorded under `area`.
@MainActor
public struct ListView: Widget {
    public typealias RowRenderer = (_ index: Int, _ rect: Rect, _ selected: Bool, _ buffer: inout Buffer) -> Void
    /// The name its rows are clicked by (see ``HitTarget/item(area:index:)``) and its layout kept by.
    public var area: String
    public var count: Int
    public var state: ListState
    public var rowHeight: Int
    /// The blank lines a row ends with, between it and the next: the last row in view may go
    /// without them (its rectangle is cut to the list's), so a list shows every row that fits.
    public var gap: Int
    public var row: RowRenderer

    public init(
        area: String, count: Int, state: ListState, rowHeight: Int = 1, gap: Int = 0, row: @escaping RowRenderer
    ) {
        self.area = area
        self.count = count
        self.state = state
        self.rowHeight = rowHeight
        self.gap = max(0, min(gap, rowHeight - 1))
        self.row = row
    }

    /// Draws each visible row with whether it is selected, and a scroll indicator when not
    /// everything fits.
    public func render(in rect: Rect, buffer: inout Buffer) {
        let height = max(1, (rect.height + gap) / max(1, rowHeight))
        let state = state.laidOut(count: count, height: height)
        buffer.record(
            PaneLayout(rect: rect, count: count, firstRow: state.offset, rowsShown: height), as: area)
        let showBar = state.count > height && rect.width > 2
        let rowWidth = showBar ? rect.width - 1 : rect.width
        for (i, index) in state.visibleRange.enumerated() {
            let y = rect.y + i * rowHeight
            let rowRect = Rect(x: rect.x, y: y, width: rowWidth, height: max(0, min(rowHeight, rect.maxY - y)))
            buffer.addHit(rowRect, .item(area: area, index: index))  // first: controls the row draws sit on top
            if index == state.selected { buffer.focus = Point(x: rowRect.x, y: rowRect.y) }
            row(index, rowRect, index == state.selected, &buffer)
        }
        if showBar {
            Self.drawScrollBar(
                state, in: Rect(x: rect.maxX - 1, y: rect.y, width: 1, height: rect.height), buffer: &buffer)
        }
    }

    /// A scroll bar for `state` as laid out.
    public static func drawScrollBar(_ state: ListState, in rect: Rect, buffer: inout Buffer) {
        guard rect.height > 0, state.count > 0 else { return }
        let thumb = max(1, rect.height * state.pageSize / state.count)
        let range = max(1, state.count - state.pageSize)
        let top = (rect.height - thumb) * min(state.offset, range) / range
        for y in 0..<rect.height {
            let inThumb = y >= top && y < top + thumb
            buffer.draw(
                inThumb ? "┃" : "│", at: Point(x: rect.x, y: rect.y + y), style: inThumb ? .plain : .dim, maxWidth: 1)
        }
    }
}
