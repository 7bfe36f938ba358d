import Localization
import TerminalUI

/// What a key does in a grid of NFTs (a collection, a user's NFTs).
enum NFTGridAction: Sendable { case open, like, cart, author, retry, search, clearSearch }

/// The keys of the grids of NFTs: one list, so the grids cannot drift apart.
enum NFTGridKeys {
    /// A collection's grid, with its author's page.
    static var collection: KeyMap<NFTGridAction> {
        KeyMap(
            "nft-grid",
            [
                // Opening first: on a narrow footer the later hints give way.
                KeyBinding([.enter], tr(.openNFT), hint: tr(.hintOpen), .open),
                KeyBinding([.char("l")], tr(.likeUnlike), hint: tr(.hintLike), changesData: true, .like),
                KeyBinding([.char("c")], tr(.cartToggle), hint: tr(.hintCart), changesData: true, .cart),
                KeyBinding([.char("a")], tr(.openAuthor), hint: tr(.hintAuthor), .author),
                KeyBinding([.char("r")], tr(.reload), hint: tr(.hintRetry), .retry),
            ] + ListSearch.bindings(search: .search, clear: .clearSearch))
    }
    /// A user's NFTs: the same keys, without an author's page.
    static var userNFTs: KeyMap<NFTGridAction> { collection.filter { $0.action != .author } }
    /// Favorites: the like key unlikes (and the NFT leaves the grid); no author's page.
    static var favorites: KeyMap<NFTGridAction> {
        KeyMap(
            "favorites",
            [
                KeyBinding([.enter], tr(.openNFT), hint: tr(.hintOpen), .open),
                KeyBinding(
                    [.char("l")], tr(.unlikeKey), hint: tr(.hintUnlike), changesData: true, name: "unlike", .like),
                KeyBinding([.char("c")], tr(.cartToggle), hint: tr(.hintCart), changesData: true, .cart),
                KeyBinding([.char("r")], tr(.reload), hint: tr(.hintRetry), .retry),
            ] + ListSearch.bindings(search: .search, clear: .clearSearch))
    }
}
