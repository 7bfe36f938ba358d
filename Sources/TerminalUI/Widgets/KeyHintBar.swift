/// The bottom line of short key hints ("? help  q quit"). Only whole hints are shown: one that
/// does not fit is left out (never cut to "q q…"), and later, shorter ones still get their turn.
/// The first hint (the screen's main action: pay, save) and then the last `kept` (the shell's
/// back, help and quit) get their room first, so a screen with many keys never pushes them out,
/// and long words on a narrow terminal never hide what the screen is for.
@MainActor
public struct KeyHintBar: Widget {
    public var hints: [KeyHint]
    public var kept: Int

    public init(_ hints: [KeyHint], keepingLast kept: Int = 0) {
        self.hints = hints
        self.kept = min(kept, hints.count)
    }

    private static func width(_ hint: KeyHint) -> Int { DisplayWidth.of("\(hint.key) \(hint.label)") + 2 }

    public func render(in rect: Rect, buffer: inout Buffer) {
        buffer.clear(rect, style: .plain)
        // Which hints show: the main one, the kept ones, then the others in order, each only if it fits whole.
        var room = rect.width + 2  // the last hint needs no gap after it
        var shown = Set<Int>()
        let own = hints.indices.dropLast(kept)
        for index in Array(own.prefix(1)) + Array(hints.indices.suffix(kept)) + Array(own.dropFirst())
        where Self.width(hints[index]) <= room {
            shown.insert(index)
            room -= Self.width(hints[index])
        }
        var x = rect.x
        for index in hints.indices where shown.contains(index) {
            let hint = hints[index]
            x += buffer.draw(hint.key, at: Point(x: x, y: rect.y), style: .accent, maxWidth: rect.maxX - x)
            x += buffer.draw(" \(hint.label)", at: Point(x: x, y: rect.y), style: .dim, maxWidth: max(0, rect.maxX - x))
            x += 2  // the gap before the next hint
        }
    }
}
