import Localization
import FakeNFTCore
import TerminalUI

/// Favorite NFTs: a grid with picture, heart, name, rating and price; `l` unlikes.
@MainActor
final class FavoritesScreen: Screen {
    enum Action: Sendable { case unlike, cart, open, search, clearSearch, retry }
    static var keys: KeyMap<Action> {
        KeyMap(
            [
                KeyBinding([.char("l")], tr(.unlikeKey), hint: tr(.hintUnlike), .unlike),
                KeyBinding([.char("c")], tr(.cartToggle), hint: tr(.hintCart), .cart),
                KeyBinding([.enter], tr(.openNFT), hint: tr(.hintOpen), .open),
                KeyBinding([.char("r")], tr(.reload), hint: tr(.hintRetry), .retry),
            ] + ListSearch.bindings(search: .search, clear: .clearSearch))
    }

    var title: String { tr(.favoriteNFTs) }
    let tasks = TaskBag()
    let model: FavoritesViewModel
    private var grid = GridState()
    private var gridRect = Rect(x: 0, y: 0, width: 0, height: 0)
    private var search = ListSearch()

    init(model: FavoritesViewModel) { self.model = model }

    var isAnimating: Bool { model.fetched.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] {
        [
            search.layer(
                update: { [unowned self] in
                    search = $0
                    grid.select(0)
                }, move: { [unowned self] in _ = grid.handle($0) })
        ].compactMap { $0 } + [
            .keys(
                title, Self.keys,
                enabled: { [unowned self, hasItems = !shown.isEmpty, any = !model.items.isEmpty] action in
                    switch action {
                    case .search: any
                    case .clearSearch: search.isActive
                    case .unlike, .cart, .open: hasItems
                    case .retry: true
                    }
                }, hinted: { $0 != .retry || model.fetched.failure != nil }
            ) { [unowned self] in perform($0) },
            .grid(grid, area: "grid", in: gridRect) { [unowned self] in grid = $0 },
        ]
    }

    /// The favorites shown: all, or those matching the search.
    private var shown: [NFT] { search.filter(model.items) { $0.name } }

    private func perform(_ action: Action) -> ScreenCommand {
        switch action {
        case .search:
            search.begin()
            return .handled
        case .clearSearch:
            search.clear()
            return .handled
        case .retry:
            tasks.run { [model] in await model.load() }
            return .handled
        default: break
        }
        let items = shown
        grid.count = items.count  // an unlike since the last frame removed one: the selection follows
        guard grid.selected < items.count else { return .handled }
        let nft = items[grid.selected]
        switch action {
        case .unlike: model.unlike(nft)
        case .cart: model.context.state.toggleCart(nft)
        case .open: return .push(NFTScreen(model: NFTViewModel(nft: nft, context: model.context)))
        case .search, .clearSearch, .retry: break
        }
        return .handled
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        if StatusView.render(model.fetched, what: .yourFavorites, in: rect, buffer: &buffer) { return }
        let items = model.items
        if items.isEmpty {
            EmptyStateView.render(tr(.noFavoritesYet), in: rect, buffer: &buffer)
            return
        }
        var body = rect
        if !search.isShown {  // the count, as My NFTs says it (the search bar says "N of M" instead)
            buffer.draw(
                Format.count(items.count, .nfts), at: Point(x: rect.x, y: rect.y), style: .dim, maxWidth: rect.width)
            body = rect.splitTop(2).1
        }
        gridRect = NFTGrid.render(
            shown, of: items.count, search: search, in: body, grid: &grid, state: model.context.state,
            pictures: model.context.pictures, buffer: &buffer)
    }
}
