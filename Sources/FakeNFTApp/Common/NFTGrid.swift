import Localization
import FakeNFTCore
import TerminalUI

/// The grid of NFT cells the Collection, Favorites and a user's NFTs share, with what every one
/// of them does the same way: the selection and scrolling, the `/` search (its bar takes the
/// first row and the names show the match), where it was drawn (for the wheel and clicks), its
/// key layers and its drawing. A screen gives its NFTs, its own keys and what they do.
@MainActor
final class NFTGridPane {
    private(set) var grid = GridState()
    private(set) var search = ListSearch()
    /// Where the grid was last drawn (its cells are clicked by their recorded rects; the wheel by this).
    private var rect = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Every NFT of the screen (the search picks among them).
    private let nfts: () -> [NFT]
    /// The keys the cells' heart and cart button press: the screen's like and cart keys.
    private let buttons: NFTCellView.Buttons

    init(buttons: NFTCellView.Buttons, nfts: @escaping () -> [NFT]) {
        self.buttons = buttons
        self.nfts = nfts
    }

    /// The NFTs shown: all, or those matching the search.
    var shown: [NFT] { search.filter(nfts()) { $0.name } }

    /// The NFT selected among those shown now; rows may have gone since the last frame (an
    /// unlike in Favorites): the selection is kept among those left.
    func selectedNFT() -> NFT? {
        let shown = shown
        grid.count = shown.count
        return grid.selected < shown.count ? shown[grid.selected] : nil
    }

    func beginSearch() { search.begin() }
    func clearSearch() { search.clear() }

    /// The layers, top first: the search field while it is typed in, the screen's `keys`, the grid.
    func layers(with keys: KeyLayer) -> [KeyLayer] {
        let typing = search.layer(
            update: { [unowned self] in
                search = $0
                grid.select(0)
            }, move: { [unowned self] in _ = grid.handle($0) })
        return [typing].compactMap { $0 } + [keys, .grid(grid, area: "grid", in: rect) { [unowned self] in grid = $0 }]
    }

    /// Draws the NFTs shown into `area`, each cell with its picture, heart and cart button as
    /// `state` has them; cells grow on wide terminals.
    func render(in area: Rect, state: AppState, pictures: Pictures, buffer: inout Buffer) {
        let all = nfts(), shown = search.filter(all) { $0.name }
        var body = area
        if search.isShown {
            let (bar, rest) = area.splitTop(2)
            search.renderBar(shown: shown.count, total: all.count, what: .nfts, in: bar, buffer: &buffer)
            body = rest
        }
        rect = body
        grid.count = shown.count
        if shown.isEmpty {
            buffer.draw(
                tr(.noNFTMatches, search.query), at: Point(x: body.x + 1, y: body.y), style: .dim,
                maxWidth: body.width - 2)
            return
        }
        let layout = NFTCellView.layout(shown, in: Size(width: body.width, height: body.height))
        let query = search.query, buttons = buttons
        GridView(area: "grid", cellSize: layout.size) { index, cell, selected, buffer in
            let nft = shown[index]
            NFTCellView.render(
                nft, liked: state.isLiked(nft), cart: state.cartPlace(nft), selected: selected, highlight: query,
                layout: layout, item: ("grid", index), buttons: buttons, pictures: pictures, in: cell, buffer: &buffer)
        }.render(in: body, buffer: &buffer, state: &grid)
    }
}
