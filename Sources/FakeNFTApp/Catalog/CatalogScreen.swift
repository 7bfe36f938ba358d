import FakeNFTCore
import TerminalUI

/// Catalog: the collections, each with a cover, its name and NFT count.
@MainActor
final class CatalogScreen: Screen {
    enum Action: Sendable { case open, sort, filter, clearFilter, retry }

    static let keys = KeyMap<Action>([
        KeyBinding([.enter], "Open the collection", hint: "open", .open),
        KeyBinding([.char("s")], "Sort (by name, by NFT count)", hint: "sort", .sort),
        KeyBinding([.char("/")], "Filter by name", hint: "filter", .filter),
        KeyBinding([.escape], "Clear the filter", .clearFilter),
        KeyBinding([.char("r")], "Reload", .retry),
    ])
    enum FilterAction: Sendable { case keep, clear }
    static let filterKeys = KeyMap<FilterAction>([
        KeyBinding([.enter], "Keep the filter", hint: "keep filter", .keep),
        KeyBinding([.escape], "Clear the filter", hint: "clear", .clear),
    ])
    static let sortOptions: [(label: String, value: SortPreferences.Catalog)] = [("By name", .name), ("By NFT count", .nftCount)]

    let title = "Catalog"
    let tasks = TaskBag()
    let model: CatalogViewModel
    private var list = ListState()
    private var listRect = Rect(x: 0, y: 0, width: 0, height: 0)
    private var filterEditor: TextEditor?
    private var sortMenu = SortMenu(CatalogScreen.sortOptions)

    init(model: CatalogViewModel) { self.model = model }

    var isAnimating: Bool { model.collections.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] {
        var layers: [KeyLayer] = []
        if let menu = sortMenu.layer(update: { [unowned self] in sortMenu = $0 },
                                     chosen: { [unowned self] in model.setSort($0); list.select(0) }) {
            layers.append(menu)
        }
        if let filterEditor { layers.append(filterLayer(filterEditor)) }
        layers.append(.keys("Catalog", Self.keys, enabled: { [unowned self] in enabled($0) }) { [unowned self] in perform($0) })
        layers.append(.list(list, area: "list", in: listRect) { [unowned self] in list = $0 })
        return layers
    }

    private func enabled(_ action: Action) -> Bool {
        switch action {
        case .open, .sort, .filter: return model.collections.value != nil
        case .clearFilter: return !model.filter.isEmpty
        case .retry: return true
        }
    }

    /// Typing into the filter: text goes to the field, the arrows still move the list.
    private func filterLayer(_ editor: TextEditor) -> KeyLayer {
        KeyLayer(title: "Filter", help: Self.filterKeys.helpEntries + TextEditor.help + [ListState.help],
                 hints: Self.filterKeys.hints(), isModal: true) { [unowned self] event in
            var editor = editor
            switch event {
            case .key(let key):
                switch Self.filterKeys.action(for: key) {
                case .keep: filterEditor = nil; return .handled
                case .clear: filterEditor = nil; model.filter = ""; return .handled
                case nil: break
                }
                if [.up, .down, .pageUp, .pageDown].contains(key) { _ = list.handle(key); return .handled }
                _ = editor.handle(key)
            case .paste(let text): editor.insert(text)
            default: return .handled
            }
            filterEditor = editor
            model.filter = editor.text
            list.select(0)
            return .handled
        }
    }

    private func perform(_ action: Action) -> ScreenCommand {
        switch action {
        case .open:
            let visible = model.visible
            guard list.selected < visible.count else { return .handled }
            return .push(CollectionScreen(model: CollectionViewModel(collection: visible[list.selected], context: model.context)))
        case .sort: sortMenu.open(current: model.sort)
        case .filter: filterEditor = TextEditor(model.filter)
        case .clearFilter: model.filter = ""
        case .retry: tasks.run { [model] in await model.load() }
        }
        return .handled
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        var (header, body) = rect.splitTop(1)
        let sortName = sortMenu.name(of: model.sort)
        let visible = model.visible
        var status = model.collections.value != nil
            ? "\(Format.count(visible.count, "collection")), \(sortName)" : "Collections, \(sortName)"
        if !model.filter.isEmpty || filterEditor != nil { status += ", filter: " }
        let used = buffer.draw(status, at: Point(x: header.x, y: header.y), style: .dim, maxWidth: header.width)
        if let filterEditor {
            TextFieldView.render(filterEditor, in: Rect(x: header.x + used, y: header.y, width: max(1, header.width - used), height: 1),
                                 focused: true, buffer: &buffer)
        } else if !model.filter.isEmpty {
            buffer.draw(model.filter, at: Point(x: header.x + used, y: header.y), style: .accent, maxWidth: header.width - used)
        }
        body = body.splitTop(1).1
        if StatusView.render(model.collections, what: "collections", in: body, buffer: &buffer) { return }
        if visible.isEmpty {
            buffer.draw(model.filter.isEmpty ? "No collections." : "No collection matches “\(model.filter)”.",
                         at: Point(x: body.x + 1, y: body.y + 1), style: .dim, maxWidth: body.width - 2)
            return
        }
        list.count = visible.count
        listRect = body
        let pictures = model.context.pictures
        ListView(area: "list", rowHeight: 3) { index, full, selected, buffer in
            let row = Rect(x: full.x, y: full.y, width: min(full.width, Format.readableWidth), height: full.height)
            let collection = visible[index]
            SelectionMarker.render(selected, at: Point(x: row.x, y: row.y), rows: 2, buffer: &buffer)
            PictureView.render(collection.cover, label: collection.name, in: Rect(x: row.x + 2, y: row.y, width: 6, height: 2),
                               pictures: pictures, buffer: &buffer)
            buffer.draw("\(collection.name) (\(collection.nfts.count))", at: Point(x: row.x + 10, y: row.y),
                         style: selected ? .selected : .bold, maxWidth: row.width - 11)
            buffer.draw(collection.description, at: Point(x: row.x + 10, y: row.y + 1), style: .dim, maxWidth: row.width - 11)
        }.render(in: body, buffer: &buffer, state: &list)
        sortMenu.render(in: rect, buffer: &buffer)
    }
}
