/// A terminal size in cells.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)×\(height)" }
}

/// A cell position; `x` is the column, `y` the row, both 0-based.
public struct Point: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A rectangle of cells.
public struct Rect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }
    public init(size: Size) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    /// Its top-left cell.
    public var origin: Point { Point(x: x, y: y) }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    public func contains(_ p: Point) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }

    /// The rectangle shrunk by `dx` columns and `dy` rows on each side.
    public func inset(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// A rectangle of `size` centred in this one (clamped to fit).
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width), ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }

}

/// How much of a row or column split one part takes.
public enum Constraint: Sendable, Hashable {
    /// Exactly this many cells (fewer when the space runs out).
    case length(Int)
    /// An equal share of what the fixed parts leave.
    case fill
}

/// Splits a rectangle into parts that come back as a tuple, so that a caller names them
/// (`let (header, body) = rect.rows(.length(2), .fill)`), never indexes them.
public extension Rect {
    /// Top to bottom, one part per constraint.
    func rows(_ a: Constraint, _ b: Constraint) -> (Rect, Rect) { Self.two(rowParts([a, b])) }

    func rows(_ a: Constraint, _ b: Constraint, _ c: Constraint) -> (Rect, Rect, Rect) {
        Self.three(rowParts([a, b, c]))
    }

    func rows(_ a: Constraint, _ b: Constraint, _ c: Constraint, _ d: Constraint, _ e: Constraint)
        -> (Rect, Rect, Rect, Rect, Rect)
    {
        let p = rowParts([a, b, c, d, e])
        return (p[0], p[1], p[2], p[3], p[4])
    }

    /// Left to right, one part per constraint.
    func columns(_ a: Constraint, _ b: Constraint) -> (Rect, Rect) { Self.two(columnParts([a, b])) }

    func columns(_ a: Constraint, _ b: Constraint, _ c: Constraint) -> (Rect, Rect, Rect) {
        Self.three(columnParts([a, b, c]))
    }

    func columns(_ a: Constraint, _ b: Constraint, _ c: Constraint, _ d: Constraint, _ e: Constraint)
        -> (Rect, Rect, Rect, Rect, Rect)
    {
        let p = columnParts([a, b, c, d, e])
        return (p[0], p[1], p[2], p[3], p[4])
    }

    private static func two(_ p: [Rect]) -> (Rect, Rect) { (p[0], p[1]) }
    private static func three(_ p: [Rect]) -> (Rect, Rect, Rect) { (p[0], p[1], p[2]) }

    private func rowParts(_ constraints: [Constraint]) -> [Rect] {
        Self.split(height, constraints).map { Rect(x: x, y: y + $0.start, width: width, height: $0.length) }
    }

    private func columnParts(_ constraints: [Constraint]) -> [Rect] {
        Self.split(width, constraints).map { Rect(x: x + $0.start, y: y, width: $0.length, height: height) }
    }

    /// Starts and lengths of the parts of `total` cells: fixed lengths first, in order, then the
    /// rest shared by the fills (the first fills get the odd cells).
    private static func split(_ total: Int, _ constraints: [Constraint]) -> [(start: Int, length: Int)] {
        var remaining = max(0, total)
        var lengths = constraints.map { constraint -> Int in
            guard case .length(let n) = constraint else { return 0 }
            let length = min(max(0, n), remaining)
            remaining -= length
            return length
        }
        let fills = constraints.indices.filter { constraints[$0] == .fill }
        for (k, index) in fills.enumerated() {
            lengths[index] = remaining / fills.count + (k < remaining % fills.count ? 1 : 0)
        }
        var start = 0
        return lengths.map { length in
            defer { start += length }
            return (start, length)
        }
    }
}
