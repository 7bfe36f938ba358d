/// A row of tabs with optional badges ("Cart [3]"); each tab drawn is clickable as item `index` of
/// ``area``.
@MainActor
public struct TabBar: Widget {
    public struct Tab: Sendable, Hashable {
        public var title: String
        public var badge: Int?
        public init(title: String, badge: Int? = nil) {
            self.title = title
            self.badge = badge
        }
    }

    /// The name the tabs are clicked by.
    public static let area = "tabs"

    public var tabs: [Tab]
    public var selected: Int

    public init(_ tabs: [Tab], selected: Int) {
        self.tabs = tabs
        self.selected = selected
    }

    /// The columns the tabs take when nothing cuts them.
    public var width: Int { Self.width(of: labels(short: false)) }

    /// Each tab's number and name with its badge; `short`: only the selected tab's name.
    private func labels(short: Bool) -> [String] {
        tabs.enumerated().map { i, tab in
            let badge = tab.badge.map { $0 > 0 ? " [\($0)]" : "" } ?? ""
            return short && i != selected ? " \(i + 1)\(badge) " : " \(i + 1) \(tab.title)\(badge) "
        }
    }

    private static func width(of labels: [String]) -> Int { labels.reduce(0) { $0 + DisplayWidth.of($1) + 1 } - 1 }

    /// Draws the tabs in the first row of `rect`: with the numbers alone beside the selected
    /// tab's name when all names do not fit (a phone's 40 columns).
    public func render(in rect: Rect, buffer: inout Buffer) {
        buffer.clear(Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), style: .plain)
        var x = rect.x
        let whole = labels(short: false)
        for (i, label) in (Self.width(of: whole) <= rect.width ? whole : labels(short: true)).enumerated() {
            let used = buffer.draw(
                label, at: Point(x: x, y: rect.y), style: i == selected ? .selected : .plain,
                maxWidth: max(0, rect.maxX - x))
            buffer.addHit(Rect(x: x, y: rect.y, width: used, height: 1), .item(area: Self.area, index: i))
            x += used + 1
        }
    }
}
