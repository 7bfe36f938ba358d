import FakeNFTCore
import Localization
import TerminalUI

/// What the keys of a grid of NFTs do: one controller for every such grid (a collection, a
/// user's NFTs, Favorites), as lazygit's one controller serves every list of commits. A screen
/// attaches it to its grid with the keys it offers and what differs: the NFT screen an NFT opens,
/// a collection's author page.
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
    /// The author's page, where the grid has an author.
    let author: (() -> ScreenCommand)?

    init(
        pane: GridPane<NFT>, context: AppContext, keys: @escaping () -> KeyMap<NFTGridAction>,
        failed: @escaping () -> Bool,
        reload: @escaping () -> Void, opened: ((NFT) -> any Screen)? = nil, author: (() -> ScreenCommand)? = nil
    ) {
        self.pane = pane
        self.context = context
        self.keys = keys
        self.failed = failed
        self.reload = reload
        self.opened = opened ?? { NFTScreen(model: NFTViewModel(nft: $0, context: context)) }
        self.author = author
        if !context.readOnly { pane.markID = { AnyHashable($0.id) } }  // nothing could act on marks
    }

    /// The keys the cells' heart and cart button press: none in read-only mode (the cells show
    /// what is so, without the buttons that would change it).
    var buttons: NFTCellView.Buttons {
        if context.readOnly { return NFTCellView.Buttons(like: nil, cart: nil) }
        let keys = keys()
        return NFTCellView.Buttons(like: keys.key(for: .like), cart: keys.key(for: .cart))
    }

    /// The grid's layers: the search's, these keys (titled `title`), the grid's movement.
    func layers(title: String) -> [KeyLayer] {
        pane.layers(with: [.keys(title, keys(), readOnly: context.readOnly) { use($0) }])
    }

    /// What each key does now.
    private func use(_ action: NFTGridAction) -> KeyUse {
        switch action {
        case .retry: return .run(hinted: failed()) { reload() }
        case .author: return author.map { author in .command { author() } } ?? .passes
        case .open: return .on(pane.selected) { .push(opened($0)) }
        case .like:
            return .on(pane.selected) {
                likeMarked(orElse: $0)
                return .handled
            }
        case .cart:
            // one owned NFT cannot go in the cart (marked ones are sorted out by the batch)
            if pane.marked.isEmpty, let nft = pane.selected, context.state.cartPlace(nft) == .owned {
                return .refused(tr(.alreadyOwned, nft.name))
            }
            return .on(pane.selected) {
                cartMarked(orElse: $0)
                return .handled
            }
        case .search: return pane.all.isEmpty ? .passes : .run { pane.beginSearch() }
        case .clearSearch: return pane.search.isActive ? .run { pane.clearSearch() } : .passes
        }
    }

    /// Likes every marked NFT (unlikes them all when all are liked), one action `u` takes back
    /// whole, else `nft`; says what it did.
    private func likeMarked(orElse nft: NFT) {
        let marked = pane.marked
        guard !marked.isEmpty else { return context.state.toggleLike(nft) }
        let liking = marked.contains { !context.state.isLiked($0) }
        let changed = context.state.setLiked(marked, liking)
        pane.clearMarks()
        context.effects.show(Toast(tr(liking ? .batchLiked : .batchUnliked, Format.count(changed, .nfts))))
    }

    /// Puts every marked NFT in the cart (takes them all out when all are in it), one action `u`
    /// takes back whole, else `nft`; says what it did, and how many it left out as owned.
    private func cartMarked(orElse nft: NFT) {
        guard !pane.marked.isEmpty else { return context.state.toggleCart(nft) }
        let marked = pane.marked.filter { context.state.cartPlace($0) != .owned }
        let owned = pane.marked.count - marked.count
        let adding = marked.contains { !context.state.isInCart($0) }
        let changed = context.state.setInCart(marked, adding)
        pane.clearMarks()
        var words = tr(adding ? .batchAdded : .batchTakenOut, Format.count(changed, .nfts))
        if owned > 0 { words += "; " + tr(.batchOwnedLeft, Format.count(owned, .nfts)) }
        context.effects.show(Toast(words))
    }
}
