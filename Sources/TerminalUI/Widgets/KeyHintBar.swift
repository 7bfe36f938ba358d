/// The bottom line of short key hints ("? help  q quit").
@MainActor
public struct KeyHintBar: Widget {
    public var hints: [KeyHint]

    public init(_ hints: [KeyHint]) { self.hints = hints }

    public func render(in rect: Rect, buffer: inout Buffer) {
        buffer.clear(rect, style: .plain)
        var x = rect.x
        for hint in hints {
            guard x < rect.maxX else { break }
            x += buffer.draw(hint.key, at: Point(x: x, y: rect.y), style: .accent, maxWidth: rect.maxX - x)
            x += buffer.draw(" \(hint.label)  ", at: Point(x: x, y: rect.y), style: .dim, maxWidth: max(0, rect.maxX - x))
        }
    }
}
