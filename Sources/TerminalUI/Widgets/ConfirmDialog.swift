/// A modal question with two buttons and an optional picture.
///
/// Keys: ←/→ and Tab move between the buttons, Enter presses the focused one, Esc cancels,
/// `y` confirms and `n` cancels.
public struct ConfirmDialog: Sendable, Hashable, Widget {
    public enum Result: Sendable, Hashable { case confirmed, cancelled }
    public enum Action: Sendable, Hashable { case switchButton, press, confirm, cancel }

    /// The dialog's keys: what it dispatches, its help and its footer hints.
    public static var keys: KeyMap<Action> {
        KeyMap(
            "dialog",
            [
                KeyBinding(
                    [.left, .right, .tab, .backTab, .char("h"), .char("l")], WidgetText.dialogSwitch(),
                    hint: WidgetText.hintChoose(),
                    hintKeys: "←→", .switchButton),
                KeyBinding([.enter, .char(" ")], WidgetText.dialogPress(), hint: WidgetText.hintPress(), .press),
                KeyBinding([.char("y"), .char("Y")], WidgetText.dialogConfirm(), .confirm),
                KeyBinding(
                    [.escape, .char("n"), .char("N")], WidgetText.dialogCancel(), hint: WidgetText.hintCancel(), .cancel
                ),
            ])
    }

    public var title: String
    public var message: String
    public var confirmLabel: String
    public var cancelLabel: String
    /// True when the confirm button has focus.
    public var confirmFocused: Bool
    /// Draw the confirm button as destructive (red).
    public var destructive: Bool
    /// A key of the confirm button's own beside `y` (`r` for a Retry button, as everywhere else
    /// in the app), nil: none.
    public var confirmKey: Key?

    public init(
        title: String, message: String, confirmLabel: String, cancelLabel: String,
        confirmFocused: Bool = false, destructive: Bool = false, confirmKey: Key? = nil
    ) {
        self.confirmKey = confirmKey
        self.title = title
        self.message = message
        self.confirmLabel = confirmLabel
        self.cancelLabel = cancelLabel
        self.confirmFocused = confirmFocused
        self.destructive = destructive
    }

    /// Handles a key; returns a result when the dialog closes.
    public mutating func handle(_ key: Key) -> Result? {
        if let confirmKey, key == confirmKey { return .confirmed }
        switch Self.keys.action(for: key) {
        case .switchButton: confirmFocused.toggle()
        case .press: return confirmFocused ? .confirmed : .cancelled
        case .confirm: return .confirmed
        case .cancel: return .cancelled
        case nil: break
        }
        return nil
    }

    /// Draws the dialog centred in `area`; its buttons are clickable (as `y` and `n`).
    public func render(in area: Rect, buffer: inout Buffer) {
        draw(in: area, buffer: &buffer, pictureSize: nil, picture: nil)
    }

    /// The dialog with a picture above its message: `picture` draws into the `size` reserved for it.
    public func picturing(_ size: Size, _ picture: @escaping (Rect, inout Buffer) -> Void) -> some Widget {
        Pictured(dialog: self, size: size, picture: picture)
    }

    private struct Pictured: Widget {
        let dialog: ConfirmDialog
        let size: Size
        let picture: (Rect, inout Buffer) -> Void
        func render(in area: Rect, buffer: inout Buffer) {
            dialog.draw(in: area, buffer: &buffer, pictureSize: size, picture: picture)
        }
    }

    private func draw(
        in area: Rect, buffer: inout Buffer, pictureSize: Size?, picture: ((Rect, inout Buffer) -> Void)?
    ) {
        let width = min(area.width - 2, 52)
        let textLines = DisplayWidth.wrap(message, width: max(1, width - 4))
        let pictureRows = picture != nil ? (pictureSize?.height ?? 0) + 1 : 0
        let height = min(area.height, 4 + pictureRows + textLines.count + 2)
        let rect = area.centered(width: width, height: height)
        guard rect.width >= 12, rect.height >= 5 else { return }
        buffer.clear(rect)
        buffer.render(Block(title: title, style: .accent), in: rect)
        var y = rect.y + 2
        if let picture, let pictureSize {
            picture(
                Rect(
                    x: rect.x + (rect.width - pictureSize.width) / 2, y: y, width: pictureSize.width,
                    height: pictureSize.height), &buffer)
            y += pictureSize.height + 1
        }
        for line in textLines where y < rect.maxY - 3 {
            let w = DisplayWidth.of(line)
            buffer.draw(
                line, at: Point(x: rect.x + (rect.width - w) / 2, y: y), style: .plain, maxWidth: rect.width - 4)
            y += 1
        }
        let confirm = "[ \(confirmLabel) ]", cancel = "[ \(cancelLabel) ]"
        let total = DisplayWidth.of(confirm) + 3 + DisplayWidth.of(cancel)
        let bx = rect.x + max(2, (rect.width - total) / 2)
        let by = rect.maxY - 2
        var confirmStyle: Style = destructive ? .error : .bold
        if confirmFocused { confirmStyle = .selected }
        let used = buffer.button(
            confirm, at: Point(x: bx, y: by), style: confirmStyle, maxWidth: rect.width - 4,
            key: Self.keys.key(for: .confirm))
        buffer.button(
            cancel, at: Point(x: bx + used + 3, y: by), style: confirmFocused ? .plain : .selected,
            maxWidth: max(0, rect.maxX - 2 - (bx + used + 3)), key: Self.keys.key(for: .cancel))
        buffer.focus = Point(x: confirmFocused ? bx : bx + used + 3, y: by)  // the button Enter presses
    }
}
