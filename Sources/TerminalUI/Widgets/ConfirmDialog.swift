/// A modal question with two buttons and an optional picture.
///
/// Keys: ←/→ and Tab move between the buttons, Enter presses the focused one, Esc cancels,
/// `y` confirms and `n` cancels.
public struct ConfirmDialog: Sendable, Hashable {
    public enum Result: Sendable, Hashable { case confirmed, cancelled }

    public var title: String
    public var message: String
    public var confirmLabel: String
    public var cancelLabel: String
    /// True when the confirm button has focus.
    public var confirmFocused: Bool
    /// Draw the confirm button as destructive (red).
    public var destructive: Bool

    public init(title: String, message: String, confirmLabel: String, cancelLabel: String,
                confirmFocused: Bool = false, destructive: Bool = false) {
        self.title = title; self.message = message
        self.confirmLabel = confirmLabel; self.cancelLabel = cancelLabel
        self.confirmFocused = confirmFocused; self.destructive = destructive
    }

    /// Handles a key; returns a result when the dialog closes.
    public mutating func handle(_ key: Key) -> Result? {
        switch key {
        case .left, .right, .tab, .backTab, .char("h"), .char("l"): confirmFocused.toggle()
        case .enter, .char(" "): return confirmFocused ? .confirmed : .cancelled
        case .escape, .char("n"), .char("N"): return .cancelled
        case .char("y"), .char("Y"): return .confirmed
        default: break
        }
        return nil
    }

    public static let keyHelp: [HelpEntry] = [
        HelpEntry(keys: "← → Tab", text: "Move between buttons"),
        HelpEntry(keys: "Enter", text: "Press the focused button"),
        HelpEntry(keys: "y / n", text: "Confirm / cancel"),
        HelpEntry(keys: "Esc", text: "Cancel"),
    ]

    /// Draws the dialog centred in `area`. `picture` draws into the rectangle reserved for it.
    @MainActor
    public func render(in area: Rect, surface: any Surface, pictureSize: Size? = nil,
                       picture: ((Rect) -> Void)? = nil) {
        let width = min(area.width - 2, 52)
        let textLines = DisplayWidth.wrap(message, width: max(1, width - 4))
        let pictureRows = picture != nil ? (pictureSize?.height ?? 0) + 1 : 0
        let height = min(area.height, 4 + pictureRows + textLines.count + 2)
        let rect = area.centered(width: width, height: height)
        guard rect.width >= 12, rect.height >= 5 else { return }
        surface.clear(rect)
        surface.box(rect, title: title, style: .accent)
        var y = rect.y + 2
        if let picture, let pictureSize {
            picture(Rect(x: rect.x + (rect.width - pictureSize.width) / 2, y: y, width: pictureSize.width, height: pictureSize.height))
            y += pictureSize.height + 1
        }
        for line in textLines where y < rect.maxY - 3 {
            let w = DisplayWidth.of(line)
            surface.draw(line, at: Point(x: rect.x + (rect.width - w) / 2, y: y), style: .plain, maxWidth: rect.width - 4)
            y += 1
        }
        let confirm = "[ \(confirmLabel) ]", cancel = "[ \(cancelLabel) ]"
        let total = DisplayWidth.of(confirm) + 3 + DisplayWidth.of(cancel)
        let bx = rect.x + max(2, (rect.width - total) / 2)
        let by = rect.maxY - 2
        var confirmStyle: Style = destructive ? .error : .bold
        if confirmFocused { confirmStyle = .selected }
        let used = surface.draw(confirm, at: Point(x: bx, y: by), style: confirmStyle, maxWidth: rect.width - 4)
        surface.draw(cancel, at: Point(x: bx + used + 3, y: by), style: confirmFocused ? .plain : .selected,
                     maxWidth: max(0, rect.maxX - 2 - (bx + used + 3)))
    }
}
