import FakeNFTCore
import TerminalUI

/// Catalog: the collections, each with a cover, its name and NFT count.
@MainActor
public final class CatalogScreen: Screen {
    enum Action: Sendable { case open, sort, filter, retry }

    static let keys = KeyMap<Action>([
        KeyBinding([.enter], "Open the collection", .open),
        KeyBinding([.char("s")], "Sort (by name, by NFT count)", .sort),
        KeyBinding([.char("/")], "Filter by name (Esc clears)", .filter),
        KeyBinding([.char("r")], "Reload", .retry),
    ])
    static let sortOptions: [(label: String, value: SortPreferences.Catalog)] = [("By name", .name), ("By NFT count", .nftCount)]

    public let title = "Catalog"
    let model: CatalogViewModel
    private var list = ListState()
    private var filterEditor: TextEditor?
    private var sortMenu = SortMenu(CatalogScreen.sortOptions)
    private var firstAppearance = FirstAppearance()

    public init(model: CatalogViewModel) { self.model = model }

    public var keyHelp: [HelpEntry] {
        Self.keys.helpEntries + [HelpEntry(keys: "↑ ↓ j k PgUp PgDn", text: "Move")]
    }
    public var hints: [(key: String, label: String)] {
        if filterEditor != nil { return [("Enter", "keep filter"), ("Esc", "clear")] }
        return [("Enter", "open"), ("s", "sort"), ("/", "filter")]
    }
    public var isAnimating: Bool { model.state == .loading }

    public func didAppear() { firstAppearance.load { await self.model.load() } }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        if sortMenu.isOpen, case .key(let key) = event {
            if let sort = sortMenu.handle(key) { model.setSort(sort); list.select(0) }
            return .handled
        }
        if var editor = filterEditor {
            switch event {
            case .key(.escape): filterEditor = nil; model.filter = ""
            case .key(.enter): filterEditor = nil
            case .key(.up), .key(.down), .key(.pageUp), .key(.pageDown): if case .key(let k) = event { _ = list.handle(k) }
            case .key(let key): _ = editor.handle(key); filterEditor = editor; model.filter = editor.text
            case .paste(let text): editor.insert(text); filterEditor = editor; model.filter = editor.text
            default: return .ignored
            }
            list.count = model.visible.count
            return .handled
        }
        switch event {
        case .key(let key):
            if let action = Self.keys.action(for: key) { return perform(action) }
            if key == .escape, !model.filter.isEmpty { model.filter = ""; list.count = model.visible.count; return .handled }
            return list.handle(key) ? .handled : .ignored
        case .mouse(let mouse):
            return list.handle(mouse, in: lastListRect) ? .handled : .ignored
        default:
            return .ignored
        }
    }

    private func perform(_ action: Action) -> ScreenCommand {
        switch action {
        case .open:
            guard model.state == .loaded, list.selected < model.visible.count else { return .handled }
            let collection = model.visible[list.selected]
            return .push(CollectionScreen(model: CollectionViewModel(collection: collection, context: model.context)))
        case .sort:
            sortMenu.open(current: model.sort)
        case .filter:
            filterEditor = TextEditor(model.filter)
        case .retry:
            Task { await model.load() }
        }
        return .handled
    }

    private var lastListRect = Rect(x: 0, y: 0, width: 0, height: 0)

    public func render(in rect: Rect, surface: any Surface) {
        var (header, body) = rect.splitTop(1)
        let sortName = sortMenu.name(of: model.sort)
        let count = model.visible.count
        var status = model.state == .loaded ? "\(count) collection\(count == 1 ? "" : "s"), \(sortName)" : "Collections, \(sortName)"
        if !model.filter.isEmpty || filterEditor != nil { status += ", filter: " }
        let used = surface.draw(status, at: Point(x: header.x, y: header.y), style: .dim, maxWidth: header.width)
        if let filterEditor {
            TextFieldView.render(filterEditor, in: Rect(x: header.x + used, y: header.y, width: max(1, header.width - used), height: 1),
                                 focused: true, surface: surface)
        } else if !model.filter.isEmpty {
            surface.draw(model.filter, at: Point(x: header.x + used, y: header.y), style: .accent, maxWidth: header.width - used)
        }
        body = body.splitTop(1).1
        if StatusView.render(model.state, what: "collections", in: body, surface: surface) { return }
        if model.visible.isEmpty {
            surface.draw(model.filter.isEmpty ? "No collections." : "No collection matches “\(model.filter)”.",
                         at: Point(x: body.x + 1, y: body.y + 1), style: .dim, maxWidth: body.width - 2)
            return
        }
        list.count = model.visible.count
        lastListRect = body
        let collections = model.visible
        let colors = model.context.colors
        ListView.render(&list, in: body, rowHeight: 3, surface: surface) { index, row, selected in
            let collection = collections[index]
            SelectionMarker.render(selected, at: Point(x: row.x, y: row.y), rows: 2, surface: surface)
            PictureView.render(seed: collection.cover, label: collection.name, in: Rect(x: row.x + 2, y: row.y, width: 6, height: 2),
                               colors: colors, surface: surface)
            surface.draw("\(collection.name) (\(collection.nfts.count))", at: Point(x: row.x + 10, y: row.y),
                         style: selected ? .selected : .bold, maxWidth: row.width - 11)
            surface.draw(collection.description, at: Point(x: row.x + 10, y: row.y + 1), style: .dim, maxWidth: row.width - 11)
        }
        sortMenu.render(in: rect, surface: surface)
    }
}
