import Foundation

/// A short message shown at the bottom for a few seconds ("Could not like: offline").
public struct Toast: Sendable, Hashable, Widget {
    /// Something done (✓), something that failed or was refused (✗), or a plain note: nothing was
    /// done, and nothing went wrong (no mark).
    public enum Kind: Sendable, Hashable { case info, error, note }
    public var message: String
    public var kind: Kind
    /// How long it shows.
    public var lasts: Duration

    /// - Parameter duration: how many seconds it shows.
    public init(_ message: String, kind: Kind = .info, duration: Int = 4) {
        self.message = message
        self.kind = kind
        lasts = .seconds(duration)
    }

    /// Draws the message centred on the last line of `area`, which it takes whole: nothing drawn
    /// there before (the key hints) shows beside it half cut.
    public func render(in area: Rect, buffer: inout Buffer) {
        buffer.clear(Rect(x: area.x, y: area.maxY - 1, width: area.width, height: 1))
        let mark =
            switch kind {
            case .info: "✓ "
            case .error: "✗ "
            case .note: ""
            }
        let text = " \(mark)\(message) "
        let width = min(area.width, DisplayWidth.of(text))
        let rect = Rect(x: area.x + (area.width - width) / 2, y: area.maxY - 1, width: width, height: 1)
        let style =
            kind == .error
            ? Style(foreground: .theme(.error), bold: true, reverse: true) : Style(bold: true, reverse: true)
        buffer.draw(text, at: Point(x: rect.x, y: rect.y), style: style, maxWidth: rect.width)
        buffer.focus = Point(x: rect.x, y: rect.y)  // a screen reader reads what happened, where the cursor is
    }
}
