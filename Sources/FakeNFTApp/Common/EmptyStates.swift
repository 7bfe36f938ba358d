import TerminalUI

/// A short message centred in an empty screen ("Cart is empty"): each row centred, the whole in
/// the middle; words are never cut (what does not fit in the height is left out).
@MainActor
struct EmptyStateView: Widget {
    var text: String

    init(_ text: String) { self.text = text }

    func render(in rect: Rect, buffer: inout Buffer) {
        let message = Paragraph([Line(text, style: .bold, alignment: .center)])
        let height = message.height(width: rect.width, most: rect.height)
        let (_, area) = rect.rows(.length(max(0, rect.height / 2 - (height - 1) / 2)), .fill)
        buffer.render(message, in: area)
    }
}

/// What a list or grid says in its place when it has nothing to show ("No collections.",
/// "Nothing matches …"): dim, wrapped, a row and a column in from its area's corner.
struct EmptyNote: Widget {
    var text: String

    init(_ text: String) { self.text = text }

    func render(in rect: Rect, buffer: inout Buffer) {
        buffer.render(Paragraph([Line(text, style: .dim)]), in: rect.inset(dx: 1, dy: 1))
    }
}
