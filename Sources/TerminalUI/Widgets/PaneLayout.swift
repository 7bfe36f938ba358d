/// How a list or a grid was laid out in a frame: where, how many items, which rows were in
/// view. ``ListView`` and ``GridView`` record it in the ``Buffer`` under their area's name, so
/// that the keys and the wheel act on what was drawn (its page size, its scroll position) and
/// drawing never writes anything back.
public struct PaneLayout: Sendable, Hashable {
    public var rect: Rect
    /// The items drawn from (visible or not).
    public var count: Int
    /// Items per row: 1 for a list.
    public var columns: Int
    /// The first row in view: a list's item, a grid's row of cells.
    public var firstRow: Int
    /// How many rows were in view.
    public var rowsShown: Int
    /// The number of the frame that drew it (see ``DrawnFrame``); 0 until a frame is kept.
    public internal(set) var frame = 0

    public init(rect: Rect, count: Int, columns: Int = 1, firstRow: Int, rowsShown: Int) {
        self.rect = rect
        self.count = count
        self.columns = columns
        self.firstRow = firstRow
        self.rowsShown = rowsShown
    }
}

/// What the next events need from the last frame drawn: its clickable parts and its lists' and
/// grids' layouts. The shell keeps one after each frame and routes every event with it.
public struct DrawnFrame: Sendable {
    public var hits: [Hit]
    public var panes: [String: PaneLayout]

    /// Nothing drawn yet.
    public init() {
        hits = []
        panes = [:]
    }

    /// Frames kept so far: each gets the next number.
    @MainActor private static var kept = 0

    /// What a click at `point` reaches: the topmost clickable part there.
    public func target(at point: Point) -> HitTarget? { hits.target(at: point) }

    /// What `buffer` drew, its layouts numbered as a new frame: a selection or a scroll position
    /// takes a frame's layout once, so keys that come faster than frames build on each other.
    @MainActor
    public init(_ buffer: Buffer) {
        Self.kept += 1
        let number = Self.kept
        hits = buffer.hits
        panes = buffer.panes.mapValues { layout in
            var numbered = layout
            numbered.frame = number
            return numbered
        }
    }
}

/// The frame whose layout a selection or a scroll position took last: each frame's is taken
/// once, so keys that come faster than frames build on each other instead of starting again
/// from the same frame.
public struct FollowedFrame: Sendable, Hashable {
    private var number = 0

    public init() {}

    /// `layout`, when it is from a frame not taken yet (or from no numbered frame); else nil.
    public mutating func take(_ layout: PaneLayout?) -> PaneLayout? {
        guard let layout, layout.frame != number || layout.frame == 0 else { return nil }
        number = layout.frame
        return layout
    }
}

/// The first line shown of what scrolls by lines (the help, a web page, the configuration's
/// problems): keys move it from where the last frame drew it, or from where the last key left it
/// when no frame came between.
public struct ScrollPosition: Sendable, Hashable {
    /// The first line shown.
    public private(set) var first = 0
    /// Lines in view, as last drawn.
    public private(set) var pageSize = 10
    /// Lines there are, as last drawn.
    public private(set) var count = 0
    private var followed = FollowedFrame()

    public init() {}

    /// Takes the position, page and line count `layout` drew, when it is from a frame not taken yet.
    public mutating func follow(_ layout: PaneLayout?) {
        guard let layout = followed.take(layout) else { return }
        first = layout.firstRow
        pageSize = max(1, layout.rowsShown)
        count = layout.count
    }

    /// Scrolls by `lines` (negative: up), within the lines there are.
    public mutating func scroll(by lines: Int) { first = max(0, min(first + lines, max(0, count - pageSize))) }

    /// Puts `line` first (drawing keeps it within the lines there are).
    public mutating func scroll(to line: Int) { first = max(0, line) }
}

/// A selection among items a pane draws (``ListState``, ``GridState``): moved by keys and the
/// wheel, laid out from the last frame's ``PaneLayout`` before it moves.
public protocol SelectionState: Sendable {
    init()
    /// The item selected (kept within the items when they are known).
    var selected: Int { get }
    /// Whether the last item is selected whatever their number (``ListState/selectLast()``).
    var followsEnd: Bool { get }
    /// Every key the selection takes: its handling and the help read this map.
    static var keys: KeyMap<SelectionMove> { get }
    /// Selects item `index`.
    mutating func select(_ index: Int)
    /// Takes the item count, the rows in view and the scroll position the last frame drew.
    mutating func follow(_ layout: PaneLayout?)
    /// Moves for a key of ``keys``; false for any other key.
    mutating func handle(_ key: Key) -> Bool
    /// Moves for the wheel (the pane decides it was over it).
    mutating func wheel(down: Bool)
}

extension SelectionState {
    public var followsEnd: Bool { false }
}
