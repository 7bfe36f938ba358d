/// The `?` overlay: the keys of the screen in focus, in a box. When they do not fit, the box
/// scrolls (``scroll`` lines down) and says that there is more.
@MainActor
public struct HelpOverlay: Widget {
    /// What a key does while the overlay is open: scroll by a line or a page, or close it.
    public enum Action: Sendable, Equatable {
        case close, down, up, pageDown, pageUp

        /// Lines this action scrolls by; nil for close.
        public var lines: Int? {
            switch self {
            case .close: nil
            case .down: 1
            case .up: -1
            case .pageDown: 10
            case .pageUp: -10
            }
        }
    }

    /// The overlay's keys (everything else is ignored while it is open).
    public static var keys: KeyMap<Action> {
        KeyMap(
            "help",
            [
                KeyBinding(
                    [.escape, .char("?"), .char("q"), .enter, .function(1)], WidgetText.closeHelp(),
                    hint: WidgetText.hintClose(), .close),
                KeyBinding([.down, .char("j")], WidgetText.scrollDown(), .down),
                KeyBinding([.up, .char("k")], WidgetText.scrollUp(), .up),
                KeyBinding([.pageDown], WidgetText.pageDown(), .pageDown),
                KeyBinding([.pageUp], WidgetText.pageUp(), .pageUp),
            ])
    }

    /// The footer's hints while the overlay is open: scroll and close.
    public static var hints: [KeyHint] {
        let keys = Self.keys
        let scroll = [Action.up, .down].compactMap { keys.key(for: $0)?.description }.joined()
        return [KeyHint(scroll, WidgetText.hintMove())] + keys.hints()
    }

    /// The name its layout (lines, lines in view, lines scrolled past) is kept by in a frame.
    public static let area = "help"

    public var title: String
    public var sections: [(String, [HelpEntry])]
    /// Lines scrolled past at the top; clamped when drawn.
    public var scroll: Int

    public init(title: String, sections: [(String, [HelpEntry])], scroll: Int = 0) {
        self.title = title
        self.sections = sections
        self.scroll = scroll
    }

    /// A line of the overlay: a section heading, an entry's keys and text (or their continuation
    /// when either wraps), or a gap.
    private enum Line { case heading(String), entry(keys: String, text: String), gap }

    /// The width of the key column for a box `width` wide: the widest keys, within a third of it.
    private func keyWidth(for width: Int) -> Int {
        min(max(8, width / 3), (sections.flatMap { $0.1 }.map { DisplayWidth.of($0.keys) }.max() ?? 4) + 2)
    }

    /// The overlay's lines in a box `width` wide: keys and texts wrap in their columns, never cut.
    private func lines(width: Int) -> [Line] {
        let keyWidth = keyWidth(for: width), textWidth = max(1, width - keyWidth - 5)
        return sections.flatMap { heading, entries -> [Line] in
            let title = DisplayWidth.wrap(heading, width: max(1, width - 4)).map { Line.heading($0) }
            let rows = entries.flatMap { entry -> [Line] in
                let keys = DisplayWidth.wrap(entry.keys, width: max(1, keyWidth - 1))
                let text = DisplayWidth.wrap(entry.text, width: textWidth)
                return (0..<max(1, keys.count, text.count)).map { i in
                    .entry(keys: i < keys.count ? keys[i] : "", text: i < text.count ? text[i] : "")
                }
            }
            return title + rows + [.gap]
        }
    }

    /// The box for `area`, its lines, the first in view and how many fit, and the hint at its
    /// foot (to close, and where it scrolls, to scroll and how many lines are below): on one row,
    /// or on two where one is too narrow for it.
    private func layout(in area: Rect) -> (rect: Rect, lines: [Line], first: Int, visible: Int, hint: [String]) {
        let width = min(area.width - 2, 76)
        let lines = lines(width: width)
        var hintRows = 1
        while true {
            let rect = area.centered(width: width, height: min(area.height, lines.count + 2 + hintRows))
            let visible = max(0, rect.height - 2 - hintRows)
            let first = max(0, min(scroll, lines.count - visible))
            let hint = hint(scrolled: first > 0, below: lines.count - first - visible, room: width - 4)
            if hint.count <= hintRows { return (rect, lines, first, visible, hint) }
            hintRows = hint.count
        }
    }

    /// The keys that close the overlay and, where it scrolls, those that scroll it: one row where
    /// `room` columns take both, else a row each.
    private func hint(scrolled: Bool, below: Int, room: Int) -> [String] {
        let keys = Self.keys
        func key(_ action: Action) -> String { keys.key(for: action)?.description ?? "" }
        let close = WidgetText.helpClose(key(.close))
        guard scrolled || below > 0 else { return [close] }
        let scroll = WidgetText.helpScroll(key(.up) + key(.down), max(0, below))
        let both = close + " · " + scroll
        return DisplayWidth.of(both) <= room ? [both] : [close, scroll]
    }

    public func render(in area: Rect, buffer: inout Buffer) {
        let (rect, lines, first, visible, hint) = layout(in: area)
        guard rect.width > 10, rect.height > 3 else { return }
        let keyWidth = keyWidth(for: rect.width)
        buffer.record(PaneLayout(rect: rect, count: lines.count, firstRow: first, rowsShown: visible), as: Self.area)
        buffer.clear(rect)
        buffer.render(Block(title: title, style: .accent), in: rect)
        buffer.focus = Point(x: rect.x + 2, y: rect.y + 1)  // a screen reader reads the help from its top
        for (i, line) in lines.dropFirst(first).prefix(visible).enumerated() {
            let y = rect.y + 1 + i
            switch line {
            case .heading(let heading):
                buffer.draw(heading, at: Point(x: rect.x + 2, y: y), style: .bold, maxWidth: rect.width - 4)
            case .entry(let keys, let text):
                buffer.draw(keys, at: Point(x: rect.x + 3, y: y), style: .accent, maxWidth: keyWidth)
                buffer.draw(
                    text, at: Point(x: rect.x + 3 + keyWidth, y: y), style: .plain, maxWidth: rect.width - keyWidth - 5)
            case .gap: break
            }
        }
        for (i, row) in hint.enumerated() {
            buffer.draw(
                row, at: Point(x: rect.x + 2, y: rect.maxY - 1 - hint.count + i), style: .dim, maxWidth: rect.width - 4)
        }
    }
}
