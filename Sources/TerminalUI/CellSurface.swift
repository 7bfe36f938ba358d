/// One screen cell: a grapheme cluster (empty for the right half of a wide character) and its style.
public struct Cell: Sendable, Hashable {
    public var text: String
    public var style: Style
    public init(text: String = " ", style: Style = .plain) { self.text = text; self.style = style }
    /// The right half of a wide character.
    public static let continuation = Cell(text: "", style: .plain)
}

/// An in-memory grid of cells: what every frame is rendered into, and what snapshot tests read.
@MainActor
public final class CellSurface: Surface {
    public let size: Size
    public private(set) var cells: [Cell]
    public var cursor: Point?

    public init(size: Size) {
        self.size = size
        cells = Array(repeating: Cell(), count: max(0, size.width * size.height))
    }

    public subscript(x: Int, y: Int) -> Cell { cells[y * size.width + x] }

    @discardableResult
    public func draw(_ text: String, at point: Point, style: Style, maxWidth: Int?) -> Int {
        guard point.y >= 0, point.y < size.height, point.x < size.width else { return 0 }
        let limit = min(maxWidth ?? Int.max, size.width - max(0, point.x))
        guard limit > 0 else { return 0 }
        let line = DisplayWidth.truncate(DisplayWidth.displayText(SafeText.sanitize(text)), to: limit)
        var x = point.x
        if line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {   // ASCII: one cell per byte
            for byte in line.utf8 {
                if x >= 0 { put(Cell(text: String(UnicodeScalar(byte)), style: style), x: x, y: point.y, width: 1) }
                x += 1
            }
            return x - point.x
        }
        for c in line {
            let w = DisplayWidth.of(c)
            if w == 0 { continue }
            if x + w > point.x + limit { break }
            if x >= 0 { put(Cell(text: String(c), style: style), x: x, y: point.y, width: w) }
            x += w
        }
        return x - point.x
    }

    public func fill(_ rect: Rect, with character: Character, style: Style) {
        let x0 = max(0, rect.x), x1 = min(size.width, rect.maxX)
        let y0 = max(0, rect.y), y1 = min(size.height, rect.maxY)
        guard x0 < x1, y0 < y1 else { return }
        let cell = Cell(text: String(character), style: style)
        for y in y0..<y1 {
            for x in x0..<x1 { put(cell, x: x, y: y, width: 1) }
        }
    }

    private func put(_ cell: Cell, x: Int, y: Int, width: Int) {
        let row = y * size.width
        // Overwriting half of a wide character blanks its other half.
        if cells[row + x].text.isEmpty, x > 0 { cells[row + x - 1] = Cell(text: " ", style: cells[row + x - 1].style) }
        if x + 1 < size.width, cells[row + x + 1].text.isEmpty, width == 1 { cells[row + x + 1] = Cell() }
        cells[row + x] = cell
        if width == 2 {
            if x + 1 < size.width {
                if x + 2 < size.width, cells[row + x + 2].text.isEmpty { cells[row + x + 2] = Cell() }
                cells[row + x + 1] = .continuation
            } else {
                cells[row + x] = Cell(text: " ", style: cell.style)
            }
        }
    }

    /// The text of one row, wide characters counted once.
    public func line(_ y: Int) -> String {
        var s = ""
        for x in 0..<size.width { s += self[x, y].text }
        return s
    }

    /// The whole grid as text, one line per row, trailing spaces removed: the snapshot format.
    public func text() -> String {
        (0..<size.height).map { line($0).replacingTrailingSpaces() }.joined(separator: "\n")
    }

    /// True when the screen shows `needle` anywhere.
    public func contains(_ needle: String) -> Bool { text().contains(needle) }
}

extension String {
    func replacingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
