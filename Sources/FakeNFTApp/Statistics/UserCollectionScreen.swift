import Localization
import FakeNFTCore
import TerminalUI

/// A user's NFTs: the grid with like and cart toggles, as in the Catalog. An NFT opened from
/// here shows its own collection and author, looked up on the server.
@MainActor
final class UserCollectionScreen: Screen {
    let tasks = TaskBag()
    let model: UserCollectionViewModel
    private let pane: GridPane<NFT>

    init(model: UserCollectionViewModel) {
        self.model = model
        pane = GridPane { model.nfts.value ?? [] }
    }

    var title: String { tr(.nftCollection) }
    var isAnimating: Bool { model.nfts.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] {
        pane.layers(with: [
            .keys(
                title, NFTGridKeys.userNFTs, enabled: { [unowned self] in enabled($0) },
                hinted: { [unowned self] in $0 != .retry || model.nfts.failure != nil }
            ) { [unowned self] in perform($0) }
        ])
    }

    private func enabled(_ action: NFTGridAction) -> Bool {
        switch action {
        case .retry: return true
        case .search: return model.nfts.value?.isEmpty == false
        case .clearSearch: return pane.search.isActive
        case .open, .like, .cart, .author: return pane.selected != nil
        }
    }

    private func perform(_ action: NFTGridAction) -> ScreenCommand {
        let context = model.context
        switch action {
        case .like: if let nft = pane.selected { context.state.toggleLike(nft) }
        case .cart: if let nft = pane.selected { context.state.toggleCart(nft) }
        case .open:
            if let nft = pane.selected { return .push(NFTScreen(model: NFTViewModel(nft: nft, context: context))) }
        case .retry: tasks.run { [model] in await model.load() }
        case .search: pane.beginSearch()
        case .clearSearch: pane.clearSearch()
        case .author: break
        }
        return .handled
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        if let status = StatusView(model.nfts, what: .userCollection, retry: NFTGridKeys.userNFTs.key(for: .retry)) {
            buffer.render(status, in: rect)
            return
        }
        if model.nfts.value?.isEmpty != false {
            buffer.draw(
                tr(.userNoNFTs, model.user.name), at: Point(x: rect.x + 1, y: rect.y + 1), style: .dim,
                maxWidth: rect.width)
            return
        }
        pane.renderNFTs(
            in: rect, buttons: NFTGridKeys.buttons, state: model.context.state, pictures: model.context.pictures,
            buffer: &buffer)
    }
}
