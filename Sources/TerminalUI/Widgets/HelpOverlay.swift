/// The `?` overlay: the keys of the screen in focus, in a box.
@MainActor
public struct HelpOverlay: Widget {
    public var title: String
    public var sections: [(String, [HelpEntry])]

    public init(title: String, sections: [(String, [HelpEntry])]) { self.title = title; self.sections = sections }

    public func render(in area: Rect, buffer: inout Buffer) {
        let rows = sections.reduce(0) { $0 + $1.1.count + 2 }
        let keyWidth = min(18, (sections.flatMap { $0.1 }.map { DisplayWidth.of($0.keys) }.max() ?? 4) + 2)
        let rect = area.centered(width: min(area.width - 2, 64), height: min(area.height, rows + 3))
        guard rect.width > 10, rect.height > 3 else { return }
        buffer.clear(rect)
        buffer.box(rect, title: title, style: .accent)
        var y = rect.y + 1
        let bottom = rect.maxY - 2
        for (heading, entries) in sections {
            guard y < bottom else { break }
            buffer.draw(heading, at: Point(x: rect.x + 2, y: y), style: .bold, maxWidth: rect.width - 4)
            y += 1
            for entry in entries where y < bottom {
                buffer.draw(entry.keys, at: Point(x: rect.x + 3, y: y), style: .accent, maxWidth: keyWidth)
                buffer.draw(entry.text, at: Point(x: rect.x + 3 + keyWidth, y: y), style: .plain, maxWidth: rect.width - keyWidth - 5)
                y += 1
            }
            y += 1
        }
        buffer.draw("Esc or ? to close", at: Point(x: rect.x + 2, y: rect.maxY - 2), style: .dim, maxWidth: rect.width - 4)
    }
}
