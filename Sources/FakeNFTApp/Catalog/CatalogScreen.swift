import Localization
import FakeNFTCore
import TerminalUI

/// Catalog: the collections, each with a cover, its name and NFT count.
@MainActor
final class CatalogScreen: Screen {
    enum Action: Sendable { case open, sort, search, clearSearch, retry }

    static var keys: KeyMap<Action> {
        KeyMap(
            "catalog",
            [
                KeyBinding([.enter], tr(.openCollection), hint: tr(.hintOpen), .open),
                KeyBinding([.char("s")], tr(.sortCatalog), hint: tr(.hintSort), .sort),
                KeyBinding([.char("r")], tr(.reload), hint: tr(.hintRetry), .retry),
            ] + ListSearch.bindings(search: .search, clear: .clearSearch))
    }
    static var sortOptions: [(label: String, value: SortPreferences.Catalog)] {
        [(tr(.byName), .name), (tr(.byNFTCount), .nftCount)]
    }

    var title: String { tr(.tabCatalog) }
    var usage: UsageEvent.Screen { .catalog }
    let tasks = TaskBag()
    let model: CatalogViewModel
    private let pane: ListPane<NFTCollection>
    private var sortMenu = SortMenu(CatalogScreen.sortOptions)

    init(model: CatalogViewModel) {
        self.model = model
        pane = ListPane(area: "list", items: { model.visible }, searchBy: \.name)
    }

    var isAnimating: Bool { model.collections.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    func clearKeptSearch() -> Bool { pane.clearSearch() }

    var layers: [KeyLayer] {
        if let menu = sortMenu.layer(
            update: { [unowned self] in sortMenu = $0 },
            chosen: { [unowned self] sort in pane.keepSelection { model.setSort(sort) } })
        {
            return [menu]
        }
        return pane.layers(with: [
            .keys(title, Self.keys, readOnly: model.context.readOnly) { [unowned self] in use($0) }
        ])
    }

    /// What each key does now.
    private func use(_ action: Action) -> KeyUse {
        let loaded = model.collections.value != nil
        switch action {
        case .open:
            guard loaded else { return .passes }
            return .on(pane.selected) { [model] collection in
                .push(CollectionScreen(model: CollectionViewModel(collection: collection, context: model.context)))
            }
        case .sort: return loaded ? .run { [unowned self] in sortMenu.open(current: model.sort) } : .passes
        case .search: return loaded ? .run { [unowned self] in pane.beginSearch() } : .passes
        case .clearSearch: return pane.search.isActive ? .run { [unowned self] in pane.clearSearch() } : .passes
        case .retry:
            return .run(hinted: model.collections.failure != nil) { [unowned self] in
                tasks.run { [model] in await model.load() }
            }
        }
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        let (header, _, body) = rect.rows(.length(1), .length(1), .fill)
        let sortName = sortMenu.name(of: model.sort)
        let visible = pane.shown, query = pane.search.query
        let status =
            model.collections.value != nil
            ? tr(.listStatus, Format.count(visible.count, .collections), sortName)
            : tr(.collectionsSorted, sortName)
        pane.renderHeader(status, total: model.visible.count, what: .collections, in: header, buffer: &buffer)
        if let status = StatusView(model.collections, what: .collections, retry: Self.keys.key(for: .retry)) {
            buffer.render(status, in: body)
            return
        }
        if visible.isEmpty {
            return buffer.render(
                EmptyNote(query.isEmpty ? tr(.noCollections) : tr(.noCollectionMatches, query)), in: body)
        }
        let (listArea, detail) = DetailPane.split(body)
        let pictures = model.context.pictures
        if let detail, let collection = pane.selected {
            renderDetail(of: collection, in: detail, buffer: &buffer)
        }
        pane.render(in: listArea, rowHeight: 3, buffer: &buffer) { collection, _, full, selected, buffer in
            let (lines, _) = Format.readable(full).rows(.length(2), .fill)
            let (marker, cover, _, text, _) = lines.columns(.length(2), .length(6), .length(2), .fill, .length(1))
            buffer.render(SelectionMarker(selected: selected), in: marker)
            buffer.render(PictureView(collection.cover, label: collection.name, pictures: pictures), in: cover)
            ListSearch.drawName(
                "\(collection.name) (\(collection.nfts.count))", matching: query, at: Point(x: text.x, y: text.y),
                style: selected ? .selected : .bold, maxWidth: text.width, buffer: &buffer)
            // The description, a sentence rather than facts to line up, takes the whole row.
            buffer.draw(
                collection.description, at: Point(x: text.x, y: text.y + 1), style: .dim,
                maxWidth: max(text.width, full.maxX - text.x - 1))
        }
        buffer.render(sortMenu, in: rect)
    }

    /// The selected collection in a pane of its own (wide terminals): its cover large, its
    /// name, size and whole description.
    private func renderDetail(of collection: NFTCollection, in rect: Rect, buffer: inout Buffer) {
        let inside = DetailPane.frame(rect, title: collection.name, buffer: &buffer)
        let used = DetailPane.picture(
            collection.cover, label: collection.name, in: inside, rows: min(14, inside.height / 2),
            pictures: model.context.pictures, buffer: &buffer)
        let (_, text) = inside.rows(.length(used + 1), .fill)
        let lines = [
            Line("\(collection.name) (\(Format.count(collection.nfts.count, .nfts)))", style: .bold, wraps: false),
            .blank, Line(collection.description),
        ]
        buffer.render(Paragraph(lines), in: text)
    }
}
