import Localization
import FakeNFTCore
import TerminalUI

/// Favorite NFTs: a grid with picture, heart, name, rating and price; `l` unlikes.
@MainActor
final class FavoritesScreen: Screen {
    enum Action: Sendable { case unlike, cart, open, search, clearSearch, retry }
    static var keys: KeyMap<Action> {
        KeyMap(
            "favorites",
            [
                KeyBinding([.char("l")], tr(.unlikeKey), hint: tr(.hintUnlike), changesData: true, .unlike),
                KeyBinding([.char("c")], tr(.cartToggle), hint: tr(.hintCart), changesData: true, .cart),
                KeyBinding([.enter], tr(.openNFT), hint: tr(.hintOpen), .open),
                KeyBinding([.char("r")], tr(.reload), hint: tr(.hintRetry), .retry),
            ] + ListSearch.bindings(search: .search, clear: .clearSearch))
    }

    /// The keys the cells' heart and cart button press.
    static var buttons: NFTCellView.Buttons {
        NFTCellView.Buttons(like: keys.key(for: .unlike), cart: keys.key(for: .cart))
    }

    var title: String { tr(.favoriteNFTs) }
    let tasks = TaskBag()
    let model: FavoritesViewModel
    private let pane: GridPane<NFT>

    init(model: FavoritesViewModel) {
        self.model = model
        pane = GridPane { model.items }
    }

    var isAnimating: Bool { model.fetched.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] {
        pane.layers(with: [
            .keys(
                title, Self.keys,
                enabled: { [unowned self, hasItems = !pane.shown.isEmpty, any = !model.items.isEmpty] action in
                    switch action {
                    case .search: any
                    case .clearSearch: pane.search.isActive
                    case .unlike, .cart, .open: hasItems
                    case .retry: true
                    }
                }, hinted: { $0 != .retry || model.fetched.failure != nil }
            ) { [unowned self] in perform($0) }
        ])
    }

    private func perform(_ action: Action) -> ScreenCommand {
        switch action {
        case .search: pane.beginSearch()
        case .clearSearch: pane.clearSearch()
        case .retry: tasks.run { [model] in await model.load() }
        case .unlike: if let nft = pane.selected { model.unlike(nft) }
        case .cart: if let nft = pane.selected { model.context.state.toggleCart(nft) }
        case .open:
            if let nft = pane.selected {
                return .push(NFTScreen(model: NFTViewModel(nft: nft, context: model.context)))
            }
        }
        return .handled
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        if let status = StatusView(model.fetched, what: .yourFavorites, retry: Self.keys.key(for: .retry)) {
            buffer.render(status, in: rect)
            return
        }
        let items = model.items
        if items.isEmpty {
            buffer.render(EmptyStateView(tr(.noFavoritesYet)), in: rect)
            return
        }
        var body = rect
        if !pane.search.isShown {  // the count, as My NFTs says it (the search bar says "N of M" instead)
            buffer.draw(
                Format.count(items.count, .nfts), at: Point(x: rect.x, y: rect.y), style: .dim, maxWidth: rect.width)
            (_, body) = rect.rows(.length(2), .fill)
        }
        pane.renderNFTs(
            in: body, buttons: Self.buttons, state: model.context.state, pictures: model.context.pictures,
            buffer: &buffer)
    }
}
