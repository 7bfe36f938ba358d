/// A small menu of choices, used for sort menus. The current choice is marked with "●".
///
/// Keys: ↑/↓ or j/k move, Enter chooses, a digit chooses directly, Esc closes.
public struct ActionSheet: Sendable, Hashable, Widget {
    public enum Result: Sendable, Hashable { case chosen(Int), dismissed }
    public enum Action: Sendable, Hashable { case choose, dismiss }
    /// The name its options are clicked by.
    public static let area = "menu"

    /// The menu's own keys; digits choose directly and the list keys move.
    public static var keys: KeyMap<Action> {
        KeyMap(
            "menu",
            [
                KeyBinding([.enter, .char(" ")], WidgetText.menuChoose(), hint: WidgetText.hintChoose(), .choose),
                KeyBinding(
                    [.escape, .char("q"), .char("s")], WidgetText.menuClose(), hint: WidgetText.hintClose(), .dismiss),
            ])
    }
    public static var help: [HelpEntry] {
        keys.helpEntries + [HelpEntry(keys: "1-9", text: WidgetText.menuChooseByNumber())] + ListState.keys.helpEntries
    }
    public static var hints: [KeyHint] {
        let list = ListState.keys
        let move = [SelectionMove.up, .down].compactMap { list.key(for: $0)?.description }.joined()
        return [KeyHint(move, WidgetText.hintMove())] + keys.hints()
    }

    public var title: String
    public var options: [String]
    public var current: Int?
    public var list: ListState

    public init(title: String, options: [String], current: Int? = nil) {
        self.title = title
        self.options = options
        self.current = current
        list = ListState(count: options.count, selected: current ?? 0)
    }

    /// Chooses the option clicked; nil for clicks elsewhere.
    public func handle(pick area: String, index: Int) -> Result? {
        area == Self.area && index < options.count ? .chosen(index) : nil
    }

    public mutating func handle(_ key: Key) -> Result? {
        switch (Self.keys.action(for: key), key) {
        case (.choose, _): return .chosen(list.selected)
        case (.dismiss, _): return .dismissed
        case (nil, .char(let c)) where c.wholeNumberValue.map({ $0 >= 1 && $0 <= options.count }) == true:
            return .chosen(c.wholeNumberValue! - 1)
        case (nil, _):
            _ = list.handle(key)
            return nil
        }
    }

    @MainActor
    public func render(in area: Rect, buffer: inout Buffer) {
        let longest = options.map { DisplayWidth.of($0) }.max() ?? 0
        let footer = Self.keys.hints().map { "\($0.key) \($0.label)" }.joined(separator: " · ")
        let width = min(area.width - 2, max(DisplayWidth.of(title) + 6, longest + 10, DisplayWidth.of(footer) + 4, 28))
        let rect = area.centered(width: width, height: options.count + 4)
        guard rect.width >= 8, rect.height >= 3 else { return }
        buffer.clear(rect)
        buffer.render(Block(title: title, style: .accent), in: rect)
        let current = self.current
        let options = self.options
        let list = ListView(area: Self.area, count: options.count, state: list) { index, row, selected, buffer in
            let mark = index == current ? "●" : " "
            buffer.draw(
                DisplayWidth.pad(" \(mark) \(index + 1). \(options[index])", to: row.width),
                at: Point(x: row.x, y: row.y),
                style: selected ? .selected : .plain, maxWidth: row.width)
        }
        let (choices, _) = rect.inset(dx: 1, dy: 1).rows(.fill, .length(1))
        buffer.render(list, in: choices)
        buffer.draw(footer, at: Point(x: rect.x + 2, y: rect.maxY - 2), style: .dim, maxWidth: rect.width - 4)
    }
}
