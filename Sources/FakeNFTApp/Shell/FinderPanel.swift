import Localization
import Observation
import TerminalUI

/// A modal finder over the screen (Ctrl-P's go-to, `:`'s commands): a field, the rows ranked by
/// what is typed (``FuzzyMatch``, all in order while it is empty), the arrows to choose, Enter
/// to pick, Esc to close.
@MainActor @Observable
final class FinderPanel {
    /// A row: its name (what is matched), where it lives or what it does, its key, and why it
    /// cannot be picked now (nil: it can).
    struct Row: Sendable {
        var name: String
        var detail: String
        var key: String = ""
        var reason: String?
    }

    /// Rows with their names made ready to match: made once, anywhere (a large shop's go-to
    /// makes its hundred thousand off the main actor).
    struct Listing: Sendable {
        let rows: [Row]
        let names: FuzzyMatch.Names

        nonisolated init(_ rows: [Row]) {
            self.rows = rows
            names = FuzzyMatch.Names(rows.lazy.map(\.name))
        }
    }

    enum Action: Sendable { case pick, close, up, down, pageUp, pageDown }

    /// The finder's keys; every other key edits the field.
    static var keys: KeyMap<Action> {
        KeyMap(
            "finder",
            [
                KeyBinding([.enter], tr(.finderPick), hint: tr(.hintOpen), .pick),
                KeyBinding([.escape], tr(.finderClose), hint: tr(.hintClose), .close),
                KeyBinding([.up, .ctrl("p")], tr(.finderUp), hint: tr(.hintChoose), hintKeys: "↑↓", .up),
                KeyBinding([.down, .ctrl("n")], tr(.finderDown), .down),
                KeyBinding([.pageUp], tr(.pageUp), .pageUp),
                KeyBinding([.pageDown], tr(.pageDown), .pageDown),
            ])
    }

    static let area = "finder"

    let title: String
    let placeholder: String
    private(set) var isShown = false
    /// The rows to find among; nil while they are gathered.
    private(set) var listing: Listing? { didSet { found = nil } }
    private var rows: [Row]? { listing?.rows }
    /// The last query's matches: a key and the frame after it rank once, not once each; a query
    /// typed on from it ranks among them only.
    @ObservationIgnored private var found: (query: String, matches: [Int])?
    private var editor = TextEditor(maxLength: 100)
    private var selected = 0
    /// True after an arrow moved the choice, false after an edit: the terminal cursor then sits
    /// on the choice (where a screen reader reads), else in the field.
    private var choosing = false
    /// Rows shown in the last frame (a page's move).
    @ObservationIgnored private var pageSize = 10

    init(title: String, placeholder: String) {
        self.title = title
        self.placeholder = placeholder
    }

    /// Opens empty, with `listing` (nil: still to come, see ``show(_:)``).
    func open(_ listing: Listing?) {
        isShown = true
        editor = TextEditor(maxLength: 100)
        selected = 0
        choosing = false
        self.listing = listing
    }

    /// The rows gathered.
    func show(_ listing: Listing) { self.listing = listing }

    func close() { isShown = false }

    /// The rows that match what is typed, best first, by index.
    var matches: [Int] {
        guard let rows else { return [] }
        let query = editor.text
        if let found, found.query == query { return found.matches }
        let typedOn = found.flatMap { !$0.query.isEmpty && query.hasPrefix($0.query) ? $0.matches : nil }
        let matches =
            if let names = listing?.names, !query.isEmpty {
                FuzzyMatch.ranked(names, by: query, among: typedOn)
            } else {
                Array(rows.indices)
            }
        found = (query, matches)
        return matches
    }

    /// The modal layer: `pick` gets the index of the row picked (among ``rows``).
    func layer(pick: @escaping (Int) -> ScreenCommand) -> KeyLayer {
        KeyLayer(title: title, help: Self.keys.helpEntries + TextEditor.help, hints: Self.keys.hints(), isModal: true) {
            [unowned self] event in
            switch event {
            case .key(let key):
                let count = matches.count
                switch Self.keys.action(for: key) {
                case .pick:
                    let found = matches
                    guard !found.isEmpty else { return .handled }
                    isShown = false
                    return pick(found[min(selected, found.count - 1)])
                case .close: isShown = false
                case .up: selected = max(0, selected - 1)
                case .down: selected = min(max(0, count - 1), selected + 1)
                case .pageUp: selected = max(0, selected - pageSize)
                case .pageDown: selected = min(max(0, count - 1), selected + pageSize)
                case nil:
                    if editor.handle(key) { selected = 0 }
                }
                choosing = [.up, .down, .pageUp, .pageDown].contains(Self.keys.action(for: key))
            case .paste(let text):
                editor.insert(String(text.prefix(100)))
                selected = 0
                choosing = false
            default: break
            }
            return .handled
        }
    }

    /// Draws the finder in a box over `area`: the field, how many match, the rows in view.
    func render(in area: Rect, buffer: inout Buffer) {
        guard isShown else { return }
        let width = min(area.width - 2, 76), height = min(area.height - 2, 22)
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + 1, width: width, height: height)
        buffer.clear(box)
        buffer.render(Block(title: title, style: .accent), in: box)
        let inside = box.inset(dx: 2, dy: 1)
        let (fieldRow, countRow, list) = inside.rows(.length(1), .length(1), .fill)
        let prompt = buffer.draw("› ", at: Point(x: fieldRow.x, y: fieldRow.y), style: .accent, maxWidth: 2)
        let field = Rect(x: fieldRow.x + prompt, y: fieldRow.y, width: fieldRow.width - prompt, height: 1)
        if editor.text.isEmpty {
            buffer.draw(placeholder, at: Point(x: field.x + 1, y: field.y), style: .dim, maxWidth: field.width - 1)
        }
        buffer.render(
            TextFieldView(editor, focused: true),
            in: Rect(x: field.x, y: field.y, width: editor.text.isEmpty ? 1 : field.width, height: 1))
        guard let rows else {
            buffer.render(Spinner(tr(.finderGathering)), in: countRow)
            return
        }
        let found = matches
        let selected = min(self.selected, max(0, found.count - 1))
        buffer.draw(
            found.isEmpty ? tr(.finderNone) : tr(.partOf, found.count, rows.count),
            at: Point(x: countRow.x, y: countRow.y),
            style: .dim, maxWidth: countRow.width)
        pageSize = max(1, list.height)
        let first = max(0, min(selected - list.height / 2, found.count - list.height))
        for (offset, index) in found.dropFirst(first).prefix(list.height).enumerated() {
            let row = rows[index], y = list.y + offset, isSelected = first + offset == selected
            let positions = listing.flatMap { FuzzyMatch.match(editor.text, at: index, of: $0.names) }?.positions ?? []
            let style: Style = row.reason != nil ? .dim : isSelected ? .selected : .bold
            if isSelected {
                buffer.fill(Rect(x: list.x, y: y, width: list.width, height: 1), with: " ", style: .selected)
                buffer.focus = Point(x: list.x, y: y)
                if choosing { buffer.cursor = nil }
            }
            let keyWidth = row.key.isEmpty ? 0 : DisplayWidth.of(row.key) + 1
            let used = buffer.draw(row.name, at: Point(x: list.x, y: y), style: style, maxWidth: list.width - keyWidth)
            for position in positions where DisplayWidth.of(String(Array(row.name).prefix(position + 1))) <= used {
                let x = list.x + DisplayWidth.of(String(Array(row.name).prefix(position)))
                var marked = style
                marked.underline = true
                buffer.draw(String(Array(row.name)[position]), at: Point(x: x, y: y), style: marked, maxWidth: 2)
            }
            let detail = [row.detail, row.reason.map { "— \($0)" } ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
            buffer.draw(
                "  " + detail, at: Point(x: list.x + used, y: y), style: isSelected ? .selected : .dim,
                maxWidth: list.width - used - keyWidth)
            if !row.key.isEmpty {
                buffer.draw(
                    row.key, at: Point(x: list.maxX - DisplayWidth.of(row.key), y: y),
                    style: isSelected ? .selected : .accent,
                    maxWidth: keyWidth)
            }
        }
    }
}
