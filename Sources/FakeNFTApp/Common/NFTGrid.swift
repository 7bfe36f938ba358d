import Localization
import FakeNFTCore
import TerminalUI

/// The grid of NFT cells the Collection, Favorites and a user's NFTs share: a ``GridPane`` whose
/// cells show an NFT's picture, heart and cart button.
extension Pane where Item == NFT, Selection == GridState {
    /// A grid of the NFTs `nfts` gives, searched by name.
    convenience init(nfts: @escaping () -> [NFT]) { self.init(area: "grid", items: nfts, searchBy: \.name) }

    /// Draws the NFTs shown into `area` (the search bar over them while searching), each cell with
    /// its picture, heart and cart button as `state` has them, the buttons pressing `buttons`;
    /// cells grow on wide terminals.
    func renderNFTs(
        in area: Rect, buttons: NFTCellView.Buttons, state: AppState, pictures: Pictures, buffer: inout Buffer
    ) {
        let shown = shown
        var body = area
        if search.isShown {
            let (bar, rest) = area.rows(.length(2), .fill)
            renderSearchBar(total: all.count, what: .nfts, in: bar, buffer: &buffer)
            body = rest
        }
        if shown.isEmpty {
            return buffer.render(EmptyNote(tr(.noNFTMatches, search.query)), in: body)
        }
        let layout = NFTCellView.layout(shown, in: Size(width: body.width, height: body.height))
        let query = search.query, area = self.area
        render(in: body, cellSize: layout.size, buffer: &buffer) { nft, index, cell, selected, buffer in
            buffer.render(
                NFTCellView(
                    nft: nft, liked: state.isLiked(nft), cart: state.cartPlace(nft), selected: selected,
                    marked: self.isMarked(nft),
                    highlight: query,
                    layout: layout, item: (area, index), buttons: buttons, pictures: pictures), in: cell)
        }
    }
}
