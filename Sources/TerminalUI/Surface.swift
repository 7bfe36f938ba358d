/// Something widgets draw into: the in-memory ``CellSurface`` or the real terminal.
///
/// Text is always drawn through ``SafeText`` and cut to the width it may take.
@MainActor
public protocol Surface: AnyObject {
    var size: Size { get }
    /// Draws `text` (sanitized, one line) at `point`, cut to `maxWidth` cells with "…". Returns the cells used.
    @discardableResult
    func draw(_ text: String, at point: Point, style: Style, maxWidth: Int?) -> Int
    /// Fills `rect` with `character` in `style`.
    func fill(_ rect: Rect, with character: Character, style: Style)
    /// Where the terminal cursor should be shown (nil hides it).
    var cursor: Point? { get set }
}

public extension Surface {
    @discardableResult
    func draw(_ text: String, at point: Point, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        draw(text, at: point, style: style, maxWidth: maxWidth)
    }

    func clear(_ rect: Rect, style: Style = .plain) { fill(rect, with: " ", style: style) }

    /// Draws a box outline with an optional title in the top border.
    func box(_ rect: Rect, title: String? = nil, style: Style = .plain) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let inner = rect.width - 2
        let horizontal = String(repeating: "─", count: inner)
        draw("┌" + horizontal + "┐", at: Point(x: rect.x, y: rect.y), style: style, maxWidth: rect.width)
        for row in rect.y + 1..<rect.maxY - 1 {
            draw("│", at: Point(x: rect.x, y: row), style: style, maxWidth: 1)
            draw("│", at: Point(x: rect.maxX - 1, y: row), style: style, maxWidth: 1)
        }
        draw("└" + horizontal + "┘", at: Point(x: rect.x, y: rect.maxY - 1), style: style, maxWidth: rect.width)
        if let title, inner > 4 {
            draw(" \(title) ", at: Point(x: rect.x + 2, y: rect.y), style: style.bolded(), maxWidth: inner - 2)
        }
    }
}
