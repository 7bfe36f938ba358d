/// The bottom line of short key hints ("? help  q quit"). Only whole hints are shown: one that
/// does not fit is left out (never cut to "q q…"), and later, shorter ones still get their turn.
@MainActor
public struct KeyHintBar: Widget {
    public var hints: [KeyHint]

    public init(_ hints: [KeyHint]) { self.hints = hints }

    public func render(in rect: Rect, buffer: inout Buffer) {
        buffer.clear(rect, style: .plain)
        var x = rect.x
        for hint in hints where x + DisplayWidth.of("\(hint.key) \(hint.label)") <= rect.maxX {
            x += buffer.draw(hint.key, at: Point(x: x, y: rect.y), style: .accent, maxWidth: rect.maxX - x)
            x += buffer.draw(" \(hint.label)", at: Point(x: x, y: rect.y), style: .dim, maxWidth: max(0, rect.maxX - x))
            x += 2  // the gap before the next hint (none is drawn past the edge, so none is cut there)
        }
    }
}
