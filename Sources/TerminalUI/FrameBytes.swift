/// What the terminal shows on a row before the frame is written.
enum RowBefore {
    /// Blanks (a cleared screen, a row a scroll uncovered): blanks need not be written.
    case blank
    /// Not known (a picture was there): every cell is written.
    case unknown
    /// These cells.
    case cells(UnsafeBufferPointer<Cell>)
}

/// The bytes of one frame as it is written: cursor moves, SGR attributes and text, with where the
/// cursor is and which attributes are set after them, so nothing is said twice. A frame starts
/// with the attributes reset (every frame ends so) and the cursor's place unknown.
struct FrameBytes {
    private(set) var bytes: [UInt8] = []
    private let attributes: GraphicRenditions
    /// Where the next character goes; nil when unknown (start, or after the last column).
    private var cursor: Point?
    /// The scroll region the terminal has (nil: the whole screen): kept from frame to frame, so
    /// a list scrolled again needs no new one.
    private(set) var region: Range<Int>?
    /// The resolved style the terminal writes in now.
    private var current = Style.plain
    /// The last drawn style and its resolution: a row's cells mostly share one.
    private var lastDrawn: (style: Style, resolved: Style)?
    /// Unchanged cells written again rather than skipped with a cursor move (which takes 4 bytes).
    private static let bridged = 3

    init(attributes: GraphicRenditions, region: Range<Int>? = nil) {
        self.attributes = attributes
        self.region = region
        bytes.reserveCapacity(4_096)
    }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Writes the cells of `frame` that look different from `previous` (without one, a cleared
    /// screen and every cell but the blanks), every cell of the `rewritten` rows, scrolling the
    /// terminal where that spares rows (``RowShift``) when `scrolling`; then the cursor: in a field,
    /// else at the selection (hidden unless for a screen reader, but there all the same: a known
    /// place at the start of a row, where a shell's output begins if the app is killed with the
    /// terminal unrestored); the attributes reset. Returns the rows written or moved.
    mutating func write(
        _ frame: Buffer, over previous: Buffer?, rewriting rewritten: Set<Int>, scrolling: Bool, counted: Bool
    ) -> Set<Int> {
        guard frame.size.width > 0, frame.size.height > 0 else { return [] }
        if previous == nil { clearScreen() }
        var changedRows = rewritten
        let width = frame.size.width
        frame.cells.withUnsafeBufferPointer { new in
            (previous?.cells ?? []).withUnsafeBufferPointer { old in
                func row(_ cells: UnsafeBufferPointer<Cell>, _ y: Int) -> UnsafeBufferPointer<Cell> {
                    UnsafeBufferPointer(rebasing: cells[y * width..<(y + 1) * width])
                }
                func same(_ y: Int, _ before: Int) -> Bool {
                    let a = row(new, y), b = row(old, before)
                    for x in 0..<width where a[x] != b[x] { return false }
                    return true
                }
                let changed = (0..<frame.size.height).map { previous == nil || !same($0, $0) }
                var shift: RowShift?
                if previous != nil, scrolling, let found = RowShift.find(changed: changed, same: same) {
                    scroll(found, counted: counted)
                    changedRows.formUnion(found.region)
                    shift = found
                }
                for y in 0..<frame.size.height {
                    let before: RowBefore
                    if previous == nil {
                        before = .blank
                    } else if rewritten.contains(y) {
                        before = .unknown
                    } else if let shift, shift.kept.contains(y) {
                        continue
                    } else if let shift, shift.region.contains(y) {
                        before = shift.rowBefore(y).map { .cells(row(old, $0)) } ?? .blank
                    } else if changed[y] {
                        before = .cells(row(old, y))
                    } else {
                        continue
                    }
                    if writeRow(y, row(new, y), over: before) { changedRows.insert(y) }
                }
            }
        }
        if let place = frame.cursor ?? frame.focus { moveCursor(to: place) }
        setAttributes(.plain)
        return changedRows
    }

    /// Clears the screen in the terminal's own background.
    /// Clears the screen for a whole frame. The scroll region is reset whatever this writer
    /// last set: a terminal may hold one it never knew of (curses' own, at its last size; a
    /// program before it), and a line feed at that region's bottom would scroll the frame away.
    private mutating func clearScreen() {
        append("\u{1B}[r")
        region = nil
        setAttributes(.plain)
        append("\u{1B}[H\u{1B}[2J")
        cursor = Point(x: 0, y: 0)
    }

    /// Scrolls a region of the screen (``RowShift``), blanks in the terminal's own background:
    /// the region is set unless it is already (setting it homes the cursor), then scrolled by a
    /// count (SU, SD) where the terminal has it, else by indexing at its edge (VT100's IND, RI).
    mutating func scroll(_ shift: RowShift, counted: Bool) {
        setAttributes(.plain)
        if region != shift.region {
            append("\u{1B}[\(shift.region.lowerBound + 1);\(shift.region.upperBound)r")
            region = shift.region
            cursor = nil
        }
        let rows = abs(shift.distance)
        if counted {
            append("\u{1B}[" + (rows == 1 ? "" : "\(rows)") + (shift.distance > 0 ? "S" : "T"))
        } else {
            moveCursor(to: Point(x: 0, y: shift.distance > 0 ? shift.region.upperBound - 1 : shift.region.lowerBound))
            append(String(repeating: shift.distance > 0 ? "\u{1B}D" : "\u{1B}M", count: rows))
        }
    }

    /// Makes the whole screen the scroll region again, if it is not.
    mutating func wholeScreenScrolls() {
        guard region != nil else { return }
        append("\u{1B}[r")
        region = nil
        cursor = nil
    }

    /// Writes the cells of row `y` (`row`) that look different from what the terminal shows
    /// there. Returns whether anything was written.
    private mutating func writeRow(_ y: Int, _ row: UnsafeBufferPointer<Cell>, over before: RowBefore) -> Bool {
        let width = row.count
        func differs(_ x: Int) -> Bool {
            switch before {
            case .unknown: return true
            case .blank: return row[x].text != " " || look(row[x]) != .plain
            case .cells(let old):
                if old[x] == row[x] { return false }
                return old[x].text != row[x].text || look(old[x]) != look(row[x])
            }
        }
        var wrote = false
        var x = 0
        while x < width {
            guard differs(x) else {
                x += 1
                continue
            }
            // A change on a wide character's right half writes the whole character.
            let start = row[x].text.isEmpty && x > 0 ? x - 1 : x
            moveCursor(to: Point(x: start, y: y))
            x = start
            wrote = true
            while x < width {
                x = writeCell(x, of: row)
                guard x < width, !differs(x) else { continue }
                // A short stretch of unchanged single cells in the same look is written again.
                var gap = x
                while gap < width, gap - x < Self.bridged, !differs(gap), isPlainCell(row[gap]) { gap += 1 }
                guard gap < width, gap > x, differs(gap) else { break }
                while x < gap { x = writeCell(x, of: row) }
            }
            cursor = x < width ? Point(x: x, y: y) : nil
        }
        return wrote
    }

    /// A one-cell ASCII character that looks as it should in the attributes already set.
    private mutating func isPlainCell(_ cell: Cell) -> Bool {
        guard cell.text.utf8.count == 1, let byte = cell.text.utf8.first, byte >= 0x20, byte < 0x7F else {
            return false
        }
        return looksRightAsSet(cell)
    }

    /// Whether `cell` written in the attributes already set looks as it should: in its own, or a
    /// blank in any that show the same background.
    private mutating func looksRightAsSet(_ cell: Cell) -> Bool {
        let look = look(cell)
        return look == current || (cell.text == " " && GraphicRenditions.visible(current, text: " ") == look)
    }

    /// Writes the cell at `x` (a wide character with the continuation cells after it); returns
    /// the column after it.
    private mutating func writeCell(_ x: Int, of row: UnsafeBufferPointer<Cell>) -> Int {
        let cell = row[x]
        if !looksRightAsSet(cell) { setAttributes(look(cell)) }
        let utf8 = cell.text.utf8
        if utf8.count == 1, let byte = utf8.first, byte >= 0x20, byte < 0x7F {
            bytes.append(byte)
        } else if cell.text.unicodeScalars.contains(where: { SafeText.isUnsafe($0.value) }) {
            bytes.append(UInt8(ascii: "?"))  // never a control from a cell; Buffer's drawing removes them
        } else {
            bytes.append(contentsOf: utf8)
        }
        var next = x + 1
        while next < row.count, row[next].text.isEmpty { next += 1 }
        return next
    }

    /// Moves the cursor to `point` in the fewest bytes: none; on the same row a carriage return,
    /// a move right or left; the next line (not from the scroll region's bottom, where it would
    /// scroll the region); or an absolute position.
    mutating func moveCursor(to point: Point) {
        defer { cursor = point }
        if cursor == point { return }
        func right(_ n: Int) -> String { n == 0 ? "" : n == 1 ? "\u{1B}[C" : "\u{1B}[\(n)C" }
        var ways = [
            point == Point(x: 0, y: 0)
                ? "\u{1B}[H" : point.x == 0 ? "\u{1B}[\(point.y + 1)H" : "\u{1B}[\(point.y + 1);\(point.x + 1)H"
        ]
        if let cursor, cursor.y == point.y {
            ways.append("\r" + right(point.x))
            if point.x > cursor.x { ways.append(right(point.x - cursor.x)) }
            if point.x < cursor.x { ways.append("\u{1B}[\(cursor.x - point.x)D") }
        } else if let cursor, point.y == cursor.y + 1, cursor.y != (region?.upperBound ?? 0) - 1 {
            ways.append("\u{1B}E" + right(point.x))
        }
        append(ways.min { $0.utf8.count < $1.utf8.count }!)
    }

    /// How `cell` looks on the terminal (``GraphicRenditions/visible(_:text:)``).
    private mutating func look(_ cell: Cell) -> Style {
        let resolved: Style
        if let lastDrawn, lastDrawn.style == cell.style {
            resolved = lastDrawn.resolved
        } else {
            resolved = attributes.resolve(cell.style)
            lastDrawn = (cell.style, resolved)
        }
        return GraphicRenditions.visible(resolved, text: cell.text)
    }

    /// Sets `style`'s attributes: reset and set, or the changes alone, whichever is shorter.
    private mutating func setAttributes(_ style: Style) {
        guard style != current else { return }
        if style == .plain {
            append("\u{1B}[m")
        } else if current == .plain {
            append("\u{1B}[" + attributes.codes(style) + "m")
        } else {
            let reset = "0;" + attributes.codes(style), changes = attributes.changes(from: current, to: style)
            append("\u{1B}[" + (changes.utf8.count < reset.utf8.count ? changes : reset) + "m")
        }
        current = style
    }
}
