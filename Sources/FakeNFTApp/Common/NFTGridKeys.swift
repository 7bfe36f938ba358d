import TerminalUI

/// What a key does in a grid of NFTs (a collection, a user's NFTs).
enum NFTGridAction: Sendable { case open, like, cart, author, retry, search, clearSearch }

/// The keys of the grids of NFTs: one list, so the two grids cannot drift apart.
enum NFTGridKeys {
    /// A collection's grid, with its author's page.
    static let collection = KeyMap<NFTGridAction>([
        KeyBinding([.char("l")], "Like / unlike", hint: "like", .like),
        KeyBinding([.char("c")], "Add to / remove from the cart", hint: "cart", .cart),
        KeyBinding([.char("a")], "Open the author's page", hint: "author", .author),
        KeyBinding([.enter], "Open the NFT", hint: "open", .open),
        KeyBinding([.char("r")], "Reload", .retry),
    ] + ListSearch.bindings(search: .search, clear: .clearSearch))
    /// A user's NFTs: the same keys, without an author's page.
    static let userNFTs = KeyMap(collection.bindings.filter { $0.action != .author })
}
