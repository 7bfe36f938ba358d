import FakeNFTCore
import TerminalUI

/// Favorite NFTs: a grid with picture, heart, name, rating and price; `l` unlikes.
@MainActor
final class FavoritesScreen: Screen {
    enum Action: Sendable { case unlike, cart, open }
    static let keys = KeyMap<Action>([
        KeyBinding([.char("l")], "Unlike (leaves the grid)", hint: "unlike", .unlike),
        KeyBinding([.char("c")], "Add to / remove from the cart", hint: "cart", .cart),
        KeyBinding([.enter], "Open the NFT", hint: "open", .open),
    ])

    let title = "Favorite NFTs"
    let tasks = TaskBag()
    let model: FavoritesViewModel
    private var grid = GridState()
    private var gridRect = Rect(x: 0, y: 0, width: 0, height: 0)

    init(model: FavoritesViewModel) { self.model = model }

    var isAnimating: Bool { model.fetched.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] {
        [
            .keys("Favorites", Self.keys, enabled: { [hasItems = !model.items.isEmpty] _ in hasItems }) { [unowned self] in perform($0) },
            .grid(grid, area: "grid", in: gridRect) { [unowned self] in grid = $0 },
        ]
    }

    private func perform(_ action: Action) -> ScreenCommand {
        let items = model.items
        guard grid.selected < items.count else { return .handled }
        let nft = items[grid.selected]
        switch action {
        case .unlike: model.unlike(nft)
        case .cart: model.context.state.toggleCart(nft)
        case .open: return .push(NFTScreen(model: NFTViewModel(nft: nft, context: model.context)))
        }
        return .handled
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        if StatusView.render(model.fetched, what: "your favorites", in: rect, buffer: &buffer) { return }
        let items = model.items
        if items.isEmpty {
            EmptyStateView.render("You have no favorite NFTs yet", in: rect, buffer: &buffer)
            return
        }
        gridRect = rect
        NFTGrid.render(items, in: rect, grid: &grid, state: model.context.state, pictures: model.context.pictures, buffer: &buffer)
    }
}
