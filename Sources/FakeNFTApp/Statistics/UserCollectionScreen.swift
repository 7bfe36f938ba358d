import Localization
import FakeNFTCore
import TerminalUI

/// A user's NFTs: the grid with like and cart toggles, as in the Catalog. An NFT opened from
/// here shows its own collection and author, looked up on the server.
@MainActor
final class UserCollectionScreen: Screen {
    let tasks = TaskBag()
    let model: UserCollectionViewModel
    private var grid = GridState()
    private var gridRect = Rect(x: 0, y: 0, width: 0, height: 0)
    private var search = ListSearch()

    init(model: UserCollectionViewModel) { self.model = model }

    var title: String { tr(.nftCollection) }
    var isAnimating: Bool { model.nfts.isLoading }

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
                title, NFTGridKeys.userNFTs, enabled: { [unowned self] in enabled($0) },
                hinted: { [unowned self] in $0 != .retry || model.nfts.failure != nil }
            ) { [unowned self] in perform($0) },
            .grid(grid, area: "grid", in: gridRect) { [unowned self] in grid = $0 },
        ]
    }

    /// The NFTs shown: all, or those matching the search.
    private var shown: [NFT] { search.filter(model.nfts.value ?? []) { $0.name } }

    private var selectedNFT: NFT? {
        let nfts = shown
        return grid.selected < nfts.count ? nfts[grid.selected] : nil
    }

    private func enabled(_ action: NFTGridAction) -> Bool {
        switch action {
        case .retry: return true
        case .search: return model.nfts.value?.isEmpty == false
        case .clearSearch: return search.isActive
        case .open, .like, .cart, .author: return selectedNFT != nil
        }
    }

    private func perform(_ action: NFTGridAction) -> ScreenCommand {
        let context = model.context
        switch action {
        case .like: if let nft = selectedNFT { context.state.toggleLike(nft) }
        case .cart: if let nft = selectedNFT { context.state.toggleCart(nft) }
        case .open:
            if let nft = selectedNFT { return .push(NFTScreen(model: NFTViewModel(nft: nft, context: context))) }
        case .retry: tasks.run { [model] in await model.load() }
        case .search: search.begin()
        case .clearSearch: search.clear()
        case .author: break
        }
        return .handled
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        if StatusView.render(model.nfts, what: .userCollection, in: rect, buffer: &buffer) { return }
        let nfts = model.nfts.value ?? []
        if nfts.isEmpty {
            buffer.draw(
                tr(.userNoNFTs, model.user.name), at: Point(x: rect.x + 1, y: rect.y + 1), style: .dim,
                maxWidth: rect.width)
            return
        }
        gridRect = NFTGrid.render(
            shown, of: nfts.count, search: search, in: rect, grid: &grid, state: model.context.state,
            pictures: model.context.pictures, buffer: &buffer)
    }
}
