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
    var usage: UsageEvent.Screen { .myNFTs }
    let tasks = TaskBag()
    let model: MyNFTsViewModel
    private let pane: ListPane<NFT>
    private var sortMenu = SortMenu(NFTSorting.options)

    init(model: MyNFTsViewModel) {
        self.model = model
        pane = ListPane(area: "list", items: { model.items }, searchBy: \.name)
    }

    var isAnimating: Bool { model.owned.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

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
        let owns = model.owned.value?.isEmpty == false
        switch action {
        case .sort: return owns ? .run { [unowned self] in sortMenu.open(current: model.sort) } : .passes
        case .search: return owns ? .run { [unowned self] in pane.beginSearch() } : .passes
        case .clearSearch: return pane.search.isActive ? .run { [unowned self] in pane.clearSearch() } : .passes
        case .retry:
            return .run(hinted: model.owned.failure != nil) { [unowned self] in
                tasks.run { [model] in await model.load() }
            }
        case .open:
            guard owns else { return .passes }
            return .on(pane.selected) { [model] nft in
                .push(NFTScreen(model: NFTViewModel(nft: nft, context: model.context)))
            }
        }
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        if let status = StatusView(model.owned, what: .yourNFTs, retry: Self.keys.key(for: .retry)) {
            buffer.render(status, in: rect)
            return
        }
        if model.items.isEmpty {
            buffer.render(EmptyStateView(tr(.noNFTsYet)), in: rect)
            return
        }
        let query = pane.search.query
        let (header, list) = rect.rows(.length(2), .fill)
        pane.renderHeader(
            tr(.listSorted, Format.count(pane.shown.count, .nfts), sortMenu.name(of: model.sort)),
            total: model.items.count, what: .nfts, in: header, buffer: &buffer)
        let pictures = model.context.pictures
        pane.render(in: list, rowHeight: NFTRowView.height, buffer: &buffer) { [model] nft, _, row, selected, buffer in
            buffer.render(
                NFTRowView(
                    nft: nft, subtitle: tr(.byAuthor, model.author(of: nft)), selected: selected, highlight: query,
                    pictures: pictures), in: row)
        }
        buffer.render(sortMenu, in: rect)
    }
}
