/// One line of text on the first row of its rect, cut to the rect's width: at its left end, or
/// ending at its right end.
public struct Label: Widget {
    public enum Alignment: Sendable { case leading, trailing }

    public var text: String
    public var style: Style
    public var alignment: Alignment

    public init(_ text: String, style: Style = .plain, alignment: Alignment = .leading) {
        self.text = text
        self.style = style
        self.alignment = alignment
    }

    /// The cells the text takes, uncut.
    public var width: Int { DisplayWidth.of(text) }

    public func render(in rect: Rect, buffer: inout Buffer) {
        guard rect.width > 0, rect.height > 0 else { return }
        let x = alignment == .leading ? rect.x : rect.maxX - min(rect.width, width)
        buffer.draw(text, at: Point(x: x, y: rect.y), style: style, maxWidth: rect.width)
    }
}

/// A ``Label`` that is clicked as its key: a click on the cells it drew presses `key` (a plain
/// label when there is none).
public struct Button: Widget {
    public var label: Label
    public var key: Key?

    public init(_ text: String, style: Style, key: Key?) {
        label = Label(text, style: style)
        self.key = key
    }

    public func render(in rect: Rect, buffer: inout Buffer) {
        guard rect.width > 0, rect.height > 0 else { return }
        buffer.button(label.text, at: Point(x: rect.x, y: rect.y), style: label.style, maxWidth: rect.width, key: key)
    }
}
