import Localization
import FakeNFTCore
import TerminalUI

/// My NFTs: picture, name, "by <author>" and price; `s` sorts.
@MainActor
final class MyNFTsScreen: Screen {
    enum Action: Sendable { case sort, open, search, clearSearch, retry }
    static var keys: KeyMap<Action> {
        KeyMap(
            "my-nfts",
            [
                KeyBinding([.char("s")], tr(.sortItems), hint: tr(.hintSort), .sort),
                KeyBinding([.enter], tr(.openNFT), hint: tr(.hintOpen), .open),
                KeyBinding([.char("r")], tr(.reload), hint: tr(.hintRetry), .retry),
            ] + ListSearch.bindings(search: .search, clear: .clearSearch))
    }

    var title: String { tr(.myNFTs) }
    let tasks = TaskBag()
    let model: MyNFTsViewModel
    private var list = ListState()
    private var listRect = Rect(x: 0, y: 0, width: 0, height: 0)
    private var sortMenu = SortMenu(NFTSorting.options)
    private var search = ListSearch()

    init(model: MyNFTsViewModel) { self.model = model }

    var isAnimating: Bool { model.owned.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] {
        if let menu = sortMenu.layer(
            update: { [unowned self] in sortMenu = $0 },
            chosen: { [unowned self] sort in
                list.keepSelection(in: { shown }, across: { model.setSort(sort) })
            })
        {
            return [menu]
        }
        return [
            search.layer(
                update: { [unowned self] in
                    search = $0
                    list.select(0)
                }, move: { [unowned self] in _ = list.handle($0) })
        ].compactMap { $0 } + [
            .keys(
                title, Self.keys,
                enabled: { [unowned self] action in
                    switch action {
                    case .clearSearch: search.isActive
                    case .retry: true
                    case .sort, .open, .search: model.owned.value?.isEmpty == false
                    }
                }, hinted: { [unowned self] in $0 != .retry || model.owned.failure != nil }
            ) { [unowned self] action in
                let items = shown
                switch action {
                case .sort: sortMenu.open(current: model.sort)
                case .search: search.begin()
                case .clearSearch: search.clear()
                case .retry: tasks.run { [model] in await model.load() }
                case .open:
                    guard list.selected < items.count else { return .handled }
                    return .push(NFTScreen(model: NFTViewModel(nft: items[list.selected], context: model.context)))
                }
                return .handled
            },
            .list(list, area: "list", in: listRect) { [unowned self] in list = $0 },
        ]
    }

    /// The NFTs shown: all, or those matching the search.
    private var shown: [NFT] { search.filter(model.items) { $0.name } }

    func render(in rect: Rect, buffer: inout Buffer) {
        if StatusView.render(model.owned, what: .yourNFTs, retry: Self.keys.key(for: .retry), in: rect, buffer: &buffer)
        {
            return
        }
        if model.items.isEmpty {
            EmptyStateView.render(tr(.noNFTsYet), in: rect, buffer: &buffer)
            return
        }
        let items = shown, query = search.query
        if search.isShown {
            search.renderBar(
                shown: items.count, total: model.items.count, what: .nfts,
                in: Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), buffer: &buffer)
        } else {
            buffer.draw(
                tr(.listSorted, Format.count(items.count, .nfts), sortMenu.name(of: model.sort)),
                at: Point(x: rect.x, y: rect.y), style: .dim, maxWidth: rect.width)
        }
        list.count = items.count
        listRect = rect.splitTop(2).1
        let pictures = model.context.pictures
        ListView(area: "list", rowHeight: NFTRowView.height) { [model] index, row, selected, buffer in
            let nft = items[index]
            NFTRowView.render(
                nft, subtitle: tr(.byAuthor, model.author(of: nft)), selected: selected, highlight: query,
                pictures: pictures, in: row, buffer: &buffer)
        }.render(in: listRect, buffer: &buffer, state: &list)
        sortMenu.render(in: rect, buffer: &buffer)
    }
}
