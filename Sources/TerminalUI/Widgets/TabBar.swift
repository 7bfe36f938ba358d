/// A row of tabs with optional badges ("Cart 3"); remembers where each tab was drawn for mouse clicks.
@MainActor
public struct TabBar {
    public struct Tab: Sendable, Hashable {
        public var title: String
        public var badge: Int?
        public init(title: String, badge: Int? = nil) {
            self.title = title
            self.badge = badge
        }
    }

    /// Draws the tabs in one row of `rect`; returns each tab's rectangle, in order.
    @discardableResult
    public static func render(_ tabs: [Tab], selected: Int, in rect: Rect, buffer: inout Buffer) -> [Rect] {
        buffer.clear(Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), style: .plain)
        var x = rect.x
        var rects: [Rect] = []
        for (i, tab) in tabs.enumerated() {
            var label = " \(i + 1) \(tab.title)"
            if let badge = tab.badge, badge > 0 { label += " [\(badge)]" }
            label += " "
            let used = buffer.draw(
                label, at: Point(x: x, y: rect.y), style: i == selected ? .selected : .plain,
                maxWidth: max(0, rect.maxX - x))
            rects.append(Rect(x: x, y: rect.y, width: used, height: 1))
            x += used + 1
        }
        return rects
    }
}
