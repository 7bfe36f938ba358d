import FakeNFTCore
import TerminalUI

/// The liked NFTs, fetched once; the grid follows the likes as they change.
@MainActor
public final class FavoritesViewModel {
    public private(set) var state: LoadState = .loading
    private var fetched: [NFT] = []
    let context: AppContext

    public init(context: AppContext) { self.context = context }

    /// The NFTs still liked, in the order of the profile's likes.
    public var items: [NFT] { fetched.filter { context.likes.contains($0.id) } }

    public func load() async {
        let ids = context.profileValue?.likes ?? Array(context.likes)
        do {
            fetched = try await context.listedNFTs(ids: ids)
            state = .loaded
        } catch {
            state = .failed(AppContext.message(for: error))
        }
        context.invalidate()
    }

    public func unlike(_ nft: NFT) { context.toggleLike(nft) }
}

/// Favorite NFTs: a grid with picture, heart, name, rating and price; `l` unlikes.
@MainActor
public final class FavoritesScreen: Screen {
    static let keys = KeyMap<Bool>([KeyBinding([.char("l")], "Unlike (leaves the grid)", true)])

    public let title = "Favorite NFTs"
    let model: FavoritesViewModel
    private var grid = GridState()
    private var firstAppearance = FirstAppearance()

    public init(model: FavoritesViewModel) { self.model = model }

    public var keyHelp: [HelpEntry] { Self.keys.helpEntries + [HelpEntry(keys: "← → ↑ ↓ j k", text: "Move")] }
    public var hints: [(key: String, label: String)] { [("l", "unlike")] }
    public var isAnimating: Bool { model.state == .loading }

    public func didAppear() { firstAppearance.load { await self.model.load() } }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        guard case .key(let key) = event else { return .ignored }
        if Self.keys.action(for: key) != nil {
            let items = model.items
            if grid.selected < items.count { model.unlike(items[grid.selected]) }
            grid.count = model.items.count
            return .handled
        }
        return grid.handle(key) ? .handled : .ignored
    }

    public func render(in rect: Rect, surface: any Surface) {
        if StatusView.render(model.state, what: "your favorites", in: rect, surface: surface) { return }
        let items = model.items
        if items.isEmpty {
            EmptyStateView.render("You have no favorite NFTs yet", in: rect, surface: surface)
            return
        }
        grid.count = items.count
        let context = model.context
        GridView.render(&grid, in: rect, cellSize: NFTCellView.size, surface: surface) { index, cell, selected in
            let nft = items[index]
            NFTCellView.render(nft, liked: true, inCart: context.cart.contains(nft.id), selected: selected,
                               colors: context.colors, in: cell, surface: surface)
        }
    }
}
