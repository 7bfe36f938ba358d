import Localization
import FakeNFTCore
import TerminalUI

/// Favorite NFTs: a grid with picture, heart, name, rating and price; `l` unlikes.
@MainActor
final class FavoritesScreen: Screen {
    var title: String { tr(.favoriteNFTs) }
    var usage: UsageEvent.Screen { .favorites }
    let tasks = TaskBag()
    let model: FavoritesViewModel
    private let pane: GridPane<NFT>
    /// What the grid's keys do: the like key unlikes.
    private let actions: NFTGridActions

    init(model: FavoritesViewModel) {
        self.model = model
        let pane = GridPane { model.items }, tasks = tasks
        self.pane = pane
        actions = NFTGridActions(
            pane: pane, context: model.context, keys: { NFTGridKeys.favorites },
            failed: { model.fetched.failure != nil },
            reload: { tasks.run { await model.load() } })
    }

    var isAnimating: Bool { model.fetched.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] { actions.layers(title: title) }

    func render(in rect: Rect, buffer: inout Buffer) {
        if let status = StatusView(model.fetched, what: .yourFavorites, retry: NFTGridKeys.favorites.key(for: .retry)) {
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
            in: body, buttons: actions.buttons, state: model.context.state, pictures: model.context.pictures,
            buffer: &buffer)
    }
}
