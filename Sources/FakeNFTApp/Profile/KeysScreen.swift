import FakeNFTCore
import Localization
import TerminalUI

/// SSH keys: the keys that open the signed-in account, each with when it was linked, the one
/// this session came in with marked; the commands `keys add` and `keys remove` change them.
@MainActor
final class KeysScreen: Screen {
    enum Action: Sendable { case retry }
    static var keys: KeyMap<Action> {
        KeyMap("ssh-keys", [KeyBinding([.char("r")], tr(.reload), hint: tr(.hintRetry), .retry)])
    }

    var title: String { tr(.sshKeys) }
    var usage: UsageEvent.Screen { .keys }
    let tasks = TaskBag()
    let model: ProfileViewModel
    private let pane: ListPane<AccountKey>

    init(model: ProfileViewModel) {
        self.model = model
        pane = ListPane(area: "keys") { model.keys.value ?? [] }
    }

    var isAnimating: Bool { model.keys.isLoading }

    func didAppear() { tasks.run { [model] in await model.loadKeys() } }

    var layers: [KeyLayer] {
        pane.layers(with: [
            .keys(title, Self.keys, readOnly: model.context.readOnly) { [unowned self] action in
                switch action {
                case .retry:
                    return .run(hinted: model.keys.failure != nil) { [unowned self] in
                        tasks.run { [model] in await model.loadKeys() }
                    }
                }
            }
        ])
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        if let status = StatusView(model.keys, what: .keys, retry: Self.keys.key(for: .retry)) {
            buffer.render(status, in: rect)
            return
        }
        let keys = model.keys.value ?? []
        let hint = Paragraph([Line(tr(.keysHint), style: .dim)])
        let (header, list) = rect.rows(.length(hint.height(width: rect.width, most: 3) + 1), .fill)
        buffer.render(hint, in: header)
        if keys.isEmpty {
            buffer.render(EmptyStateView(tr(.noKeys)), in: list)
            return
        }
        let current = model.context.signInKey
        let layout = KeyRowView.Layout(width: list.width, keys: keys)
        pane.render(in: list, rowHeight: layout.rowHeight, buffer: &buffer) { key, _, row, selected, buffer in
            buffer.render(
                KeyRowView(key: key, current: key.fingerprint == current, selected: selected, layout: layout), in: row)
        }
    }
}

/// One key in the list: its fingerprint, whole (over more lines where it is wider than the
/// row), then when it was linked and whether this session came in with it (on a line of its own
/// where both do not fit).
@MainActor
struct KeyRowView: Widget {
    /// The rows of every key of a list, alike: a list scrolls by one height.
    @MainActor struct Layout {
        /// Columns for the text, beside the selection marker.
        let textWidth: Int
        let fingerprintRows: Int
        /// Whether "this session's key" has a line of its own.
        let markApart: Bool

        init(width: Int, keys: [AccountKey]) {
            textWidth = max(8, Format.readable(Rect(x: 0, y: 0, width: width, height: 1)).width - 3)
            let widest = keys.map { DisplayWidth.of($0.fingerprint) }.max() ?? 0
            fingerprintRows = max(1, min(4, (widest + textWidth - 1) / textWidth))
            let added = keys.map { DisplayWidth.of(KeyRowView.added($0)) }.max() ?? 0
            markApart = added + DisplayWidth.of(KeyRowView.mark) > textWidth
        }

        /// The fingerprint's rows, the added line, the mark's own line where it has one, a gap.
        var rowHeight: Int { fingerprintRows + 1 + (markApart ? 1 : 0) + 1 }
    }

    var key: AccountKey
    var current: Bool
    var selected: Bool
    var layout: Layout

    static func added(_ key: AccountKey) -> String { tr(.keyAdded, Format.time(key.createdAt)) }
    static var mark: String { " · " + tr(.thisSessionKey) }

    func render(in full: Rect, buffer: inout Buffer) {
        let (marker, text) = Format.readable(full).columns(.length(2), .fill)
        buffer.render(
            SelectionMarker(selected: selected),
            in: Rect(x: marker.x, y: marker.y, width: marker.width, height: layout.rowHeight - 1))
        var rest = Substring(key.fingerprint)
        for line in 0..<layout.fingerprintRows where !rest.isEmpty {
            let part = rest.prefix(layout.textWidth)
            rest = rest.dropFirst(part.count)
            buffer.draw(
                String(part), at: Point(x: text.x, y: text.y + line), style: selected ? .selected : .bold,
                maxWidth: layout.textWidth)
        }
        let y = text.y + layout.fingerprintRows
        let added = Self.added(key)
        buffer.draw(added, at: Point(x: text.x, y: y), style: .dim, maxWidth: layout.textWidth)
        guard current else { return }
        let mark = layout.markApart ? tr(.thisSessionKey) : Self.mark
        let at = layout.markApart ? Point(x: text.x, y: y + 1) : Point(x: text.x + DisplayWidth.of(added), y: y)
        buffer.draw(mark, at: at, style: .accent, maxWidth: layout.textWidth)
    }
}
