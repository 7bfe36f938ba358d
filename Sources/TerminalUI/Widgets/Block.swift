/// A box around content: a line border with an optional title in its top edge. Its content is
/// laid out in ``inner(_:)``, a column of padding inside the border on each side.
public struct Block: Widget {
    public var title: String?
    public var style: Style
    /// Columns between the border and the content on each side.
    public var padding: Int

    public init(title: String? = nil, style: Style = .plain, padding: Int = 1) {
        self.title = title
        self.style = style
        self.padding = padding
    }

    /// Where the content of a block drawn in `rect` goes.
    public func inner(_ rect: Rect) -> Rect { rect.inset(dx: 1 + padding, dy: 1) }

    public func render(in rect: Rect, buffer: inout Buffer) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let inner = rect.width - 2
        let horizontal = String(repeating: "─", count: inner)
        let (top, sides, bottom) = rect.rows(.length(1), .fill, .length(1))
        buffer.draw("┌" + horizontal + "┐", at: top.origin, style: style, maxWidth: rect.width)
        for row in sides.y..<sides.maxY {
            buffer.draw("│", at: Point(x: rect.x, y: row), style: style, maxWidth: 1)
            buffer.draw("│", at: Point(x: rect.maxX - 1, y: row), style: style, maxWidth: 1)
        }
        buffer.draw("└" + horizontal + "┘", at: bottom.origin, style: style, maxWidth: rect.width)
        if let title, inner > 4 {
            let heading = top.inset(dx: 2, dy: 0)
            buffer.draw(" \(title) ", at: heading.origin, style: style.bolded(), maxWidth: heading.width)
        }
    }
}
