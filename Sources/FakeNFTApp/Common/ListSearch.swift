import Localization
import TerminalUI

/// `/` search in a list or a grid: filters by name as you type, ignoring case and diacritics;
/// Enter keeps the query, Esc clears it; the bar says how many of how many match (and which
/// one is selected, once kept); `n`/`N` go to the next and previous match; names show the
/// matching part underlined.
struct ListSearch: Sendable {
    enum Action: Sendable { case keep, clear }
    enum Step: Sendable { case next, previous }
    /// The keys while typing (the rest edit the field; the arrows and pages still move).
    static var typingKeys: KeyMap<Action> {
        KeyMap(
            "search",
            [
                KeyBinding([.enter], tr(.searchKeep), hint: tr(.hintKeep), .keep),
                KeyBinding([.escape], tr(.searchClear), hint: tr(.hintClear), .clear),
            ])
    }
    /// The keys while a search is kept: the next and the previous match, round the ends.
    static var matchKeys: KeyMap<Step> {
        KeyMap(
            "matches",
            [
                KeyBinding([.char("n")], tr(.searchNext), hint: tr(.hintMatches), hintKeys: "n N", .next),
                KeyBinding([.char("N")], tr(.searchPrevious), .previous),
            ])
    }
    /// The screens' own bindings: `/` starts, Esc clears a kept search.
    static func bindings<A: Sendable>(search: A, clear: A) -> [KeyBinding<A>] {
        [
            KeyBinding([.char("/")], tr(.searchByName), hint: tr(.hintSearch), search),
            KeyBinding([.escape], tr(.searchClear), clear),
        ]
    }
    static let maxLength = 100

    private(set) var query = ""
    private(set) var editor: TextEditor?

    /// True while the bar is shown: typing, or a kept query.
    var isShown: Bool { editor != nil || !query.isEmpty }
    var isActive: Bool { !query.isEmpty }
    /// True once a query is kept (typed, then Enter): `n`/`N` move among its matches.
    var isKept: Bool { editor == nil && !query.isEmpty }

    mutating func begin() { editor = TextEditor(query, maxLength: Self.maxLength) }
    mutating func clear() {
        editor = nil
        query = ""
    }

    /// The items whose name contains the query.
    func filter<T>(_ items: [T], name: (T) -> String) -> [T] {
        let key = Format.searchKey(query)
        return key.isEmpty ? items : items.filter { Format.searchKey(name($0)).contains(key) }
    }

    /// The layer that takes keys while typing; nil otherwise. `update` gets the new state after
    /// each key, `move` the keys that move the selection.
    @MainActor
    func layer(update: @escaping @MainActor (ListSearch) -> Void, move: @escaping @MainActor (Key) -> Void) -> KeyLayer?
    {
        guard editor != nil else { return nil }
        return KeyLayer(
            title: tr(.layerSearch), help: Self.typingKeys.helpEntries + TextEditor.help,
            hints: Self.typingKeys.hints(), isModal: true
        ) { event in
            var search = self
            switch event {
            case .key(let key):
                switch Self.typingKeys.action(for: key) {
                case .keep: search.editor = nil
                case .clear: search.clear()
                case nil:
                    if [.up, .down, .left, .right, .pageUp, .pageDown].contains(key) {
                        move(key)
                        return .handled
                    }
                    _ = search.editor?.handle(key)
                }
            case .paste(let text): search.editor?.insert(String(text.prefix(Self.maxLength)))
            default: return .handled
            }
            if let editor = search.editor { search.query = editor.text }
            update(search)
            return .handled
        }
    }

    /// Draws the bar on `row`: "3 of 21 NFTs, search: query · 2 of 3" (the field while typing;
    /// `selected` is the match selected, from 1).
    @MainActor
    func renderBar(shown: Int, total: Int, what: Format.Noun, selected: Int, in row: Rect, buffer: inout Buffer) {
        let used = buffer.draw(
            tr(.searchBar, Format.part(shown, of: total, what)), at: Point(x: row.x, y: row.y), style: .dim,
            maxWidth: row.width)
        let field = Rect(x: row.x + used, y: row.y, width: max(1, row.width - used), height: 1)
        if let editor {
            buffer.render(TextFieldView(editor, focused: true), in: field)
        } else {
            let used = buffer.draw(query, at: Point(x: field.x, y: field.y), style: .accent, maxWidth: field.width)
            if shown > 0 {
                buffer.draw(
                    tr(.searchPosition, selected, shown), at: Point(x: field.x + used, y: field.y), style: .dim,
                    maxWidth: field.width - used)
            }
        }
    }

    /// Draws `name` like ``Buffer/draw(_:at:style:maxWidth:)`` with the part matching `query`
    /// underlined (when it is shown whole).
    static func drawName(
        _ name: String, matching query: String, at point: Point, style: Style, maxWidth: Int, buffer: inout Buffer
    ) {
        let used = buffer.draw(name, at: point, style: style, maxWidth: maxWidth)
        guard !query.isEmpty, let range = match(query, in: name) else { return }
        let characters = Array(name)
        let before = DisplayWidth.of(String(characters[..<range.lowerBound]))
        let part = String(characters[range])
        let fits = DisplayWidth.of(name) <= maxWidth || before + DisplayWidth.of(part) < used
        guard fits else { return }
        var marked = style
        marked.underline = true
        if !style.reverse { marked.foreground = .theme(.accent) }
        buffer.draw(part, at: Point(x: point.x + before, y: point.y), style: marked, maxWidth: used - before)
    }

    /// The characters of `name` that match `query` (case and diacritics ignored), if any.
    static func match(_ query: String, in name: String) -> Range<Int>? {
        let key = Format.searchKey(query)
        guard !key.isEmpty else { return nil }
        let folded = name.map { Format.searchKey(String($0)) }
        for start in folded.indices {
            var text = ""
            for end in start..<folded.count {
                text += folded[end]
                if text == key { return start..<(end + 1) }
                if !key.hasPrefix(text) { break }
            }
        }
        return nil
    }
}
