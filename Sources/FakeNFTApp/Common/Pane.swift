import Localization
import TerminalUI

/// The list or grid of a screen, with what every one of them does the same way: the selection
/// and scrolling (laid out from the last frame), the `/` search (its bar, the filter, the names'
/// match), its key layers and its drawing. A screen gives its items, what a row or cell shows
/// and what its own keys do, and nothing else.
@MainActor
final class Pane<Item, Selection: SelectionState> {
    /// The name its rows or cells are clicked by and its layout is kept by in a frame.
    let area: String
    private(set) var selection = Selection()
    private(set) var search = ListSearch()
    private let items: () -> [Item]
    /// The name the search matches; nil when the items come already searched (on the server).
    private let name: ((Item) -> String)?
    /// Told after the selection moved (by a key, the wheel or a click).
    var moved: () -> Void = {}
    /// Told when the query typed changed.
    var searched: (String) -> Void = { _ in }
    /// The items marked with Space (by their ids): what `c`, `l` and the cart's removal act on.
    private(set) var marks: [AnyHashable] = []
    /// The id of an item, when the pane marks items (Space); nil: it does not.
    var markID: ((Item) -> AnyHashable)?

    /// The marked items among all, in their order.
    var marked: [Item] {
        guard let markID, !marks.isEmpty else { return [] }
        return all.filter { marks.contains(markID($0)) }
    }

    func isMarked(_ item: Item) -> Bool { markID.map { marks.contains($0(item)) } ?? false }

    func clearMarks() { marks = [] }

    /// Marks the selected item (unmarks it when marked, unless `extending`), then selects the
    /// one `move` leads to.
    private func mark(extending: Bool, then move: Key?) {
        guard let markID, let item = selected else { return }
        let id = markID(item)
        if let index = marks.firstIndex(of: id) {
            if !extending { marks.remove(at: index) }
        } else {
            marks.append(id)
        }
        if let move, selection.handle(move) { moved() }
    }

    /// - Parameters:
    ///   - items: every item of the screen, read whenever they are needed (the search picks among them).
    ///   - name: what the `/` search matches, when the pane filters the items itself.
    init(area: String, items: @escaping () -> [Item], searchBy name: ((Item) -> String)? = nil) {
        self.area = area
        self.items = items
        self.name = name
    }

    /// Every item, searched or not.
    var all: [Item] { items() }

    /// The items shown: all, or those matching the search.
    var shown: [Item] {
        guard let name else { return items() }
        return search.filter(items(), name: name)
    }

    /// The item selected among those shown now (items may have gone since the last frame: the
    /// selection is kept among those left); nil when none is shown.
    var selected: Item? {
        let shown = shown
        return shown.isEmpty ? nil : shown[selectedIndex(among: shown.count)]
    }

    /// The selected one of `count` items now (the last, while the selection follows the end).
    func selectedIndex(among count: Int) -> Int {
        max(0, selection.followsEnd ? count - 1 : min(selection.selected, count - 1))
    }

    func select(_ index: Int) { selection.select(index) }

    func beginSearch() { search.begin() }

    /// Clears the search; true when a query was kept or typed.
    @discardableResult
    func clearSearch() -> Bool {
        let had = search.query
        search.clear()
        if !had.isEmpty { searched("") }
        return !had.isEmpty
    }

    /// The layers, top first: the search field while it is typed in, `keys` (the screen's own),
    /// the selection's.
    func layers(with keys: [KeyLayer], title: String) -> [KeyLayer] {
        let typing = search.layer(
            update: { [unowned self] in
                let changed = $0.query != search.query
                search = $0
                if changed {
                    selection.select(0)
                    searched($0.query)
                }
            },
            move: { [unowned self] in
                _ = selection.handle($0)
                moved()
            })
        let moving = KeyLayer.selection(selection, area: area, title: title, count: { [unowned self] in shown.count }) {
            [unowned self] in
            selection = $0
            moved()
        }
        let marking = markID == nil ? nil : markingLayer
        let matches: KeyLayer? =
            search.isKept
            ? .keys(tr(.layerMatches), ListSearch.matchKeys, readOnly: false) { [unowned self] step in
                .run { [unowned self] in
                    let count = shown.count
                    guard count > 0 else { return }
                    selection.select((selectedIndex(among: count) + (step == .next ? 1 : count - 1)) % count)
                    moved()
                }
            } : nil
        return [typing].compactMap { $0 } + [marking].compactMap { $0 } + keys + [matches].compactMap { $0 } + [moving]
    }

    /// Space, Shift-arrows and Esc over the marks; the selection first takes the last frame's
    /// layout (as the movement keys' layer does), so a mark moves on as an arrow would.
    private var markingLayer: KeyLayer {
        // the footer says "3 marked: clear" while marks are; Space is in the help
        var layer = KeyLayer.keys(tr(.layerMarks), Marks.keys(count: marks.count), readOnly: false) {
            [unowned self] action in
            switch action {
            case .mark: .run { [unowned self] in mark(extending: false, then: selection is GridState ? .right : .down) }
            case .extendUp: .run { [unowned self] in mark(extending: true, then: .up) }
            case .extendDown: .run { [unowned self] in mark(extending: true, then: .down) }
            case .extendLeft: .run { [unowned self] in mark(extending: true, then: .left) }
            case .extendRight: .run { [unowned self] in mark(extending: true, then: .right) }
            case .clear: marks.isEmpty ? .passes : .run { [unowned self] in clearMarks() }
            }
        }
        let route = layer.route
        layer.route = { [unowned self] event, frame in
            selection.follow(
                frame.panes[area]
                    ?? PaneLayout(
                        rect: Rect(x: 0, y: 0, width: 0, height: 0), count: shown.count, firstRow: 0, rowsShown: 1))
            return route(event, frame)
        }
        return layer
    }

    /// Draws the search bar on `row`: how many of `total` match, the query, which match is selected.
    func renderSearchBar(total: Int, what: Format.Noun, in row: Rect, buffer: inout Buffer) {
        let shown = shown.count
        search.renderBar(
            shown: shown, total: total, what: what, selected: selectedIndex(among: shown) + 1, in: row,
            buffer: &buffer)
    }

    /// Draws the search bar on `row` while searching ("3 of 21 NFTs, search: …"), else `status`.
    func renderHeader(_ status: String, total: Int, what: Format.Noun, in row: Rect, buffer: inout Buffer) {
        if search.isShown {
            renderSearchBar(total: total, what: what, in: row, buffer: &buffer)
        } else {
            buffer.draw(status, at: Point(x: row.x, y: row.y), style: .dim, maxWidth: row.width)
        }
    }
}

/// A screen's list.
typealias ListPane<Item> = Pane<Item, ListState>
/// A screen's grid.
typealias GridPane<Item> = Pane<Item, GridState>

extension Pane where Selection == ListState {
    /// Selects the last item, and keeps it selected as more arrive (see ``ListState/selectLast()``).
    func selectLast() { selection.selectLast() }

    /// The layers of a list (see ``layers(with:title:)``).
    func layers(with keys: [KeyLayer]) -> [KeyLayer] { layers(with: keys, title: tr(.layerList)) }

    /// Draws the rows in view into `rect`, each `rowHeight` high, its last line the blank between
    /// rows (which the last row in view may go without): `row` gets the item, its index, its
    /// rectangle and whether it is selected; `extraRow`, when given, draws one more row after the
    /// items (a page being loaded, or its error).
    func render(
        in rect: Rect, rowHeight: Int, buffer: inout Buffer,
        extraRow: ((_ rect: Rect, _ buffer: inout Buffer) -> Void)? = nil,
        row: @escaping (_ item: Item, _ index: Int, _ rect: Rect, _ selected: Bool, _ buffer: inout Buffer) -> Void
    ) {
        let shown = shown
        let count = shown.count + (extraRow == nil ? 0 : 1)
        let list = ListView(area: area, count: count, state: selection, rowHeight: rowHeight, gap: 1) {
            index, rect, selected, buffer in
            if index < shown.count {
                row(shown[index], index, rect, selected, &buffer)
            } else {
                extraRow?(rect, &buffer)
            }
        }
        buffer.render(list, in: rect)
    }
}

extension Pane where Selection == GridState {
    /// The layers of a grid (see ``layers(with:title:)``).
    func layers(with keys: [KeyLayer]) -> [KeyLayer] { layers(with: keys, title: tr(.layerGrid)) }

    /// Draws the cells in view into `rect`: `cell` gets the item, its index, its rectangle and
    /// whether it is selected.
    func render(
        in rect: Rect, cellSize: Size, buffer: inout Buffer,
        cell: @escaping (_ item: Item, _ index: Int, _ rect: Rect, _ selected: Bool, _ buffer: inout Buffer) -> Void
    ) {
        let shown = shown
        let grid = GridView(area: area, count: shown.count, state: selection, cellSize: cellSize) {
            index, rect, selected, buffer in
            cell(shown[index], index, rect, selected, &buffer)
        }
        buffer.render(grid, in: rect)
    }
}

extension Pane where Item: Identifiable {
    /// Re-sorts the items with `sort` keeping the selected one selected (the first when it is gone).
    func keepSelection(across sort: () -> Void) {
        let picked = selected?.id
        sort()
        selection.select(shown.firstIndex { $0.id == picked } ?? 0)
    }
}
