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

    public init(hits: [Hit] = [], panes: [String: PaneLayout] = [:]) {
        self.hits = hits
        self.panes = panes
    }

    /// What `buffer` drew.
    public init(_ buffer: Buffer) { self.init(hits: buffer.hits, panes: buffer.panes) }
}

/// A selection among items a pane draws (``ListState``, ``GridState``): moved by keys and the
/// wheel, laid out from the last frame's ``PaneLayout`` before it moves.
public protocol SelectionState: Sendable {
    init()
    /// The item selected (kept within the items when they are known).
    var selected: Int { get }
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
