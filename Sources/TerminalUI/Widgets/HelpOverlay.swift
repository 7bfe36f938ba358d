import Localization
/// The `?` overlay: the keys of the screen in focus, in a box. When they do not fit, the box
/// scrolls (``scroll`` lines down) and says that there is more.
@MainActor
public struct HelpOverlay: Widget {
    public var title: String
    public var sections: [(String, [HelpEntry])]
    /// Lines scrolled past at the top; clamped when drawn.
    public var scroll: Int

    public init(title: String, sections: [(String, [HelpEntry])], scroll: Int = 0) {
        self.title = title; self.sections = sections; self.scroll = scroll
    }

    /// A line of the overlay: a section heading, an entry, or a gap.
    private enum Line { case heading(String), entry(HelpEntry), gap }

    private var lines: [Line] {
        sections.flatMap { heading, entries in [.heading(heading)] + entries.map { .entry($0) } + [.gap] }
    }

    /// The box for `area`, and how many lines fit in it.
    private func layout(in area: Rect) -> (rect: Rect, visible: Int) {
        let rect = area.centered(width: min(area.width - 2, 64), height: min(area.height, lines.count + 3))
        return (rect, max(0, rect.height - 3))
    }

    /// The largest useful ``scroll`` in `area`.
    public func maxScroll(in area: Rect) -> Int { max(0, lines.count - layout(in: area).visible) }

    public func render(in area: Rect, buffer: inout Buffer) {
        let lines = self.lines
        let (rect, visible) = layout(in: area)
        guard rect.width > 10, rect.height > 3 else { return }
        let keyWidth = min(18, (sections.flatMap { $0.1 }.map { DisplayWidth.of($0.keys) }.max() ?? 4) + 2)
        let first = max(0, min(scroll, maxScroll(in: area)))
        buffer.clear(rect)
        buffer.box(rect, title: title, style: .accent)
        for (i, line) in lines.dropFirst(first).prefix(visible).enumerated() {
            let y = rect.y + 1 + i
            switch line {
            case .heading(let heading):
                buffer.draw(heading, at: Point(x: rect.x + 2, y: y), style: .bold, maxWidth: rect.width - 4)
            case .entry(let entry):
                buffer.draw(entry.keys, at: Point(x: rect.x + 3, y: y), style: .accent, maxWidth: keyWidth)
                buffer.draw(entry.text, at: Point(x: rect.x + 3 + keyWidth, y: y), style: .plain, maxWidth: rect.width - keyWidth - 5)
            case .gap: break
            }
        }
        let below = lines.count - first - visible
        let more = first > 0 || below > 0 ? tr(.helpScroll, max(0, below)) : ""
        buffer.draw(tr(.helpClose) + more, at: Point(x: rect.x + 2, y: rect.maxY - 2), style: .dim, maxWidth: rect.width - 4)
    }
}
