import FakeNFTCore
import Localization
import TerminalUI

/// What the keys of a grid of NFTs do: one controller for every such grid (a collection, a
/// user's NFTs, Favorites), as lazygit's one controller serves every list of commits. A screen
/// attaches it to its grid with the keys it offers and what differs: the NFT screen an NFT opens,
/// what `l` does, a collection's author page.
@MainActor
struct NFTGridActions {
    let pane: GridPane<NFT>
    let context: AppContext
    /// The grid's keys, built when asked (in the current language, with the `[keys]` table).
    let keys: () -> KeyMap<NFTGridAction>
    /// Whether the load of the grid's NFTs failed (Retry is hinted then).
    let failed: () -> Bool
    /// Loads the grid's NFTs again.
    let reload: () -> Void
    /// The screen an NFT of the grid opens.
    let opened: (NFT) -> any Screen
    /// What the like key does to an NFT (Favorites: unlike, which takes it off the grid).
    let like: (NFT) -> Void
    /// The author's page, where the grid has an author.
    let author: (() -> ScreenCommand)?

    init(
        pane: GridPane<NFT>, context: AppContext, keys: @escaping () -> KeyMap<NFTGridAction>,
        failed: @escaping () -> Bool,
        reload: @escaping () -> Void, opened: ((NFT) -> any Screen)? = nil, like: ((NFT) -> Void)? = nil,
        author: (() -> ScreenCommand)? = nil
    ) {
        self.pane = pane
        self.context = context
        self.keys = keys
        self.failed = failed
        self.reload = reload
        self.opened = opened ?? { NFTScreen(model: NFTViewModel(nft: $0, context: context)) }
        self.like = like ?? { context.state.toggleLike($0) }
        self.author = author
        if !ReadOnlyMode.isOn { pane.markID = { AnyHashable($0.id) } }  // nothing could act on marks
    }

    /// The keys the cells' heart and cart button press.
    var buttons: NFTCellView.Buttons {
        let keys = keys()
        return NFTCellView.Buttons(like: keys.key(for: .like), cart: keys.key(for: .cart))
    }

    /// The grid's layers: the search's, these keys (titled `title`), the grid's movement.
    func layers(title: String) -> [KeyLayer] {
        pane.layers(with: [
            .keys(title, keys(), enabled: enabled, why: why, hinted: { $0 != .retry || failed() }) { perform($0) }
        ])
    }

    private func enabled(_ action: NFTGridAction) -> Bool {
        switch action {
        case .retry: true
        case .author: author != nil
        case .open, .like, .cart: pane.selected != nil
        case .search: !pane.all.isEmpty
        case .clearSearch: pane.search.isActive
        }
    }

    /// Why an action that needs an NFT cannot act: none is shown.
    private func why(_ action: NFTGridAction) -> String? {
        switch action {
        case .open, .like, .cart: pane.selected == nil ? tr(.nothingSelected) : nil
        default: nil
        }
    }

    private func perform(_ action: NFTGridAction) -> ScreenCommand {
        switch action {
        case .open: if let nft = pane.selected { return .push(opened(nft)) }
        case .like:
            let marked = pane.marked
            guard !marked.isEmpty else {
                if let nft = pane.selected { like(nft) }
                return .handled
            }
            // All marked liked, unless all are: then all unliked.
            let liking = marked.contains { !context.state.isLiked($0) }
            for nft in marked where context.state.isLiked(nft) != liking { like(nft) }
            pane.clearMarks()
        case .cart:
            let marked = pane.marked.filter { context.state.cartPlace($0) != .owned }
            guard !pane.marked.isEmpty else {
                if let nft = pane.selected { context.state.toggleCart(nft) }
                return .handled
            }
            // All marked put in the cart, unless all are in it: then all taken out.
            let adding = marked.contains { !context.state.isInCart($0) }
            for nft in marked where context.state.isInCart(nft) != adding { context.state.toggleCart(nft) }
            pane.clearMarks()
        case .author: if let author { return author() }
        case .retry: reload()
        case .search: pane.beginSearch()
        case .clearSearch: pane.clearSearch()
        }
        return .handled
    }
}
