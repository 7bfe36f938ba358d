import Localization
import FakeNFTCore
import TerminalUI

/// The grid of NFT cells the Collection, Favorites and a user's NFTs share: each cell with its
/// picture, heart and cart mark as the app state has them; cells grow on wide terminals. With a
/// search, its bar takes the first row and the names show the match.
@MainActor
enum NFTGrid {
    /// Draws `nfts` (the ones matching `search`, of `total`); returns the grid's rectangle (for clicks).
    @discardableResult
    static func render(
        _ nfts: [NFT], of total: Int, search: ListSearch, in rect: Rect, grid: inout GridState, state: AppState,
        pictures: Pictures, buffer: inout Buffer
    ) -> Rect {
        var body = rect
        if search.isShown {
            let (bar, rest) = rect.splitTop(2)
            search.renderBar(shown: nfts.count, total: total, what: .nfts, in: bar, buffer: &buffer)
            body = rest
        }
        grid.count = nfts.count
        if nfts.isEmpty {
            buffer.draw(
                tr(.noNFTMatches, search.query), at: Point(x: body.x + 1, y: body.y), style: .dim,
                maxWidth: body.width - 2)
            return body
        }
        let layout = NFTCellView.layout(nfts, in: Size(width: body.width, height: body.height))
        GridView(area: "grid", cellSize: layout.size) { index, cell, selected, buffer in
            let nft = nfts[index]
            NFTCellView.render(
                nft, liked: state.isLiked(nft), cart: state.cartPlace(nft), selected: selected, highlight: search.query,
                layout: layout, item: ("grid", index), pictures: pictures, in: cell, buffer: &buffer)
        }.render(in: body, buffer: &buffer, state: &grid)
        return body
    }
}
