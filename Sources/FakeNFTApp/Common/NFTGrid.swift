import FakeNFTCore
import TerminalUI

/// The grid of NFT cells the Collection, Favorites and a user's NFTs share: each cell with its
/// picture, heart and cart mark as the app state has them; cells grow on wide terminals.
@MainActor
enum NFTGrid {
    static func render(_ nfts: [NFT], in rect: Rect, grid: inout GridState, state: AppState, pictures: Pictures, buffer: inout Buffer) {
        grid.count = nfts.count
        GridView(area: "grid", cellSize: NFTCellView.size(forWidth: rect.width)) { index, cell, selected, buffer in
            let nft = nfts[index]
            NFTCellView.render(nft, liked: state.isLiked(nft), inCart: state.isInCart(nft), selected: selected,
                               pictures: pictures, in: cell, buffer: &buffer)
        }.render(in: rect, buffer: &buffer, state: &grid)
    }
}
