/// Selection and scroll position of a list. Works for any number of rows: nothing here
/// depends on the row count beyond clamping.
public struct ListState: Sendable, Hashable {
    public var count: Int { didSet { clamp() } }
    public private(set) var selected: Int
    public private(set) var offset: Int = 0
    /// Rows visible in the last layout; PgUp/PgDn move by this much.
    public private(set) var pageSize: Int = 10

    public init(count: Int = 0, selected: Int = 0) {
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
        switch move {
        case .up: select(selected - 1)
        case .down: select(selected + 1)
        case .pageUp: select(selected - max(1, pageSize - 1))
        case .pageDown: select(selected + max(1, pageSize - 1))
        case .first: select(0)
        case .last: select(count - 1)
        case .left, .right: return false
        }
        return true
    }

    /// Scrolls for the wheel inside `rect`, the area the list was drawn in. Clicks on rows
    /// are resolved from the frame (``ListView`` records each row it draws).
    public mutating func handle(_ mouse: MouseEvent, in rect: Rect) -> Bool {
        guard rect.contains(mouse.point) else { return false }
        switch mouse.kind {
        case .wheelUp: scroll(by: -3)
        case .wheelDown: scroll(by: 3)
        case .click: return false
        }
        return true
    }

    public mutating func select(_ index: Int) {
        selected = index
        clamp()
    }

    /// Scrolls the view (and drags the selection along so it stays visible).
    public mutating func scroll(by rows: Int) {
        offset = max(0, min(offset + rows, max(0, count - pageSize)))
        if selected < offset { selected = offset }
        if selected >= offset + pageSize { selected = offset + pageSize - 1 }
        clamp()
    }

    /// Fixes the scroll offset for a viewport of `height` rows so the selection is visible.
    public mutating func layout(height: Int) {
        pageSize = max(1, height)
        if selected < offset { offset = selected }
        if selected >= offset + pageSize { offset = selected - pageSize + 1 }
        offset = max(0, min(offset, max(0, count - pageSize)))
    }

    /// Indices of the rows in view after ``layout(height:)``.
    public var visibleRange: Range<Int> { offset..<min(count, offset + pageSize) }

    private mutating func clamp() {
        selected = count == 0 ? 0 : min(max(0, selected), count - 1)
    }
}

/// A list: only the rows in view are drawn, so the cost does not grow with the data. Each row
/// drawn is clickable as item `index` of `area`.
@MainActor
public struct ListView: StatefulWidget {
    public typealias RowRenderer = (_ index: Int, _ rect: Rect, _ selected: Bool, _ buffer: inout Buffer) -> Void
    /// The name its rows are clicked by (see ``HitTarget/item(area:index:)``).
    public var area: String
    public var rowHeight: Int
    public var row: RowRenderer

    public init(area: String, rowHeight: Int = 1, row: @escaping RowRenderer) {
        self.area = area
        self.rowHeight = rowHeight
        self.row = row
    }

    /// Lays out `state` for `rect` and draws each visible row with whether it is selected, and
    /// a scroll indicator when not everything fits.
    public func render(in rect: Rect, buffer: inout Buffer, state: inout ListState) {
        let height = max(1, rect.height / max(1, rowHeight))
        state.layout(height: height)
        let showBar = state.count > height && rect.width > 2
        let rowWidth = showBar ? rect.width - 1 : rect.width
        for (i, index) in state.visibleRange.enumerated() {
            let rowRect = Rect(x: rect.x, y: rect.y + i * rowHeight, width: rowWidth, height: rowHeight)
            buffer.addHit(rowRect, .item(area: area, index: index))  // first: controls the row draws sit on top
            if index == state.selected { buffer.focus = Point(x: rowRect.x, y: rowRect.y) }
            row(index, rowRect, index == state.selected, &buffer)
        }
        if showBar {
            Self.drawScrollBar(
                state, in: Rect(x: rect.maxX - 1, y: rect.y, width: 1, height: rect.height), buffer: &buffer)
        }
    }

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
