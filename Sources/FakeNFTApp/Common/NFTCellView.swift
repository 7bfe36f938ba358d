import FakeNFTCore
import TerminalUI

/// One NFT in a grid: picture, name, stars and heart, price, and the cart button (on the price's
/// line when both fit, else on a line of its own, so no language loses it). Cells grow on wide
/// terminals and shrink their picture, never their text, on short ones.
@MainActor
struct NFTCellView: Widget {
    /// The keys the heart and the cart button press (nil: the screen has no such key).
    struct Buttons {
        var like: Key?
        var cart: Key?
    }

    /// The narrowest cell; the grid shares out what its columns leave.
    static let minimumWidth = 22
    /// Rows around the picture: the box's top, name, stars, price, the box's bottom.
    private nonisolated static let textRows = 5

    /// How every cell of one grid is laid out: the cart button's line and the cell's size.
    struct Layout: Equatable {
        var size: Size
        /// True when the cart button has a line of its own under the price.
        var buttonOwnLine: Bool
        var pictureRows: Int { max(0, size.height - NFTCellView.textRows - (buttonOwnLine ? 1 : 0)) }
    }

    /// The layout for `nfts` in a grid of `area`: as many columns of at least `minimumWidth` as
    /// fit, sharing the width; a picture of 5 rows (7 from 150 columns, 10 from 45 rows) when the
    /// height allows, fewer when it does not (at least one, so name, price and button always show).
    /// Two rows of cells fit where there are two, and a line more when a third follows (unless
    /// the pictures would shrink to a row), where the grid shows the next row begin
    /// (``GridView``): a grid says it goes on.
    static func layout(_ nfts: [NFT], in area: Size) -> Layout {
        let preferred = area.width >= 150 ? (area.height >= 45 ? 10 : 7) : 5
        let width = max(minimumWidth, 2 * preferred + 4)
        // The narrowest a cell gets: the grid shares its width (less a scroll bar) between its columns.
        let shared = max(1, area.width - 1), columns = max(1, shared / width)
        let textWidth = shared / columns - 4
        let widestPrice = nfts.lazy.map { DisplayWidth.of(Format.price($0.price)) }.max() ?? 0
        let ownLine = widestPrice + 1 + Format.widestCartMark > textWidth
        let fixed = textRows + (ownLine ? 1 : 0)
        let rows = (nfts.count + columns - 1) / columns, wanted = max(1, min(2, rows)), peek = rows > wanted ? 1 : 0
        var pictureRows = (area.height - peek) / wanted - fixed
        // A picture needs two rows to be one: then the scroll bar alone says the grid goes on.
        if pictureRows < 2 { pictureRows = area.height / wanted - fixed }
        pictureRows = max(1, min(preferred, pictureRows))
        return Layout(size: Size(width: width, height: fixed + pictureRows), buttonOwnLine: ownLine)
    }

    var nft: NFT
    var liked: Bool
    var cart: CartPlace
    var selected: Bool
    /// Marked with Space: drawn with a ✓ before its name.
    var marked = false
    /// The search's query, underlined in the name.
    var highlight = ""
    var layout: Layout
    /// The item it is of its grid: its heart and cart button pick it and press their key.
    var item: (area: String, index: Int)
    var buttons: Buttons
    var pictures: Pictures

    /// Draws the NFT's cell into `rect`.
    func render(in rect: Rect, buffer: inout Buffer) {
        let inner = rect.inset(dx: 1, dy: 0)
        if selected { buffer.render(Block(style: .accent), in: rect) }
        let pictureRows = layout.pictureRows
        // read aloud, a picture is its name: the cell's width is its own, as a name's is
        let pictureWidth = buffer.forScreenReader ? inner.width - 2 : min(2 * pictureRows, inner.width - 2)
        if pictureRows > 0 {
            buffer.render(
                PictureView(nft.images.first ?? "", label: nft.name, pictures: pictures),
                in: Rect(
                    x: inner.x + (inner.width - pictureWidth) / 2, y: rect.y + 1, width: pictureWidth,
                    height: pictureRows))
        }
        let x = inner.x + 1, width = inner.width - 2, text = rect.y + 1 + pictureRows
        if selected { buffer.focus = Point(x: x, y: text) }  // a screen reader reads from the name
        let tick = marked ? buffer.draw("✓ ", at: Point(x: x, y: text), style: .success, maxWidth: width) : 0
        ListSearch.drawName(
            nft.name, matching: highlight, at: Point(x: x + tick, y: text), style: selected ? .selected : .bold,
            maxWidth: width - tick, buffer: &buffer)
        buffer.draw(Format.stars(nft.rating, in: buffer), at: Point(x: x, y: text + 1), style: .star, maxWidth: width)
        buffer.draw(Format.price(nft.price), at: Point(x: x, y: text + 2), style: .plain, maxWidth: width)
        let mark = Format.cartMark(cart)
        let markAt = Point(x: x + max(0, width - DisplayWidth.of(mark)), y: layout.buttonOwnLine ? text + 3 : text + 2)
        let heartAt = Point(x: x + width - 1, y: text + 1)
        if let like = buttons.like {
            buffer.button(
                Format.heart(liked), at: heartAt, style: liked ? .heart : .dim, maxWidth: 1,
                target: .itemButton(area: item.area, index: item.index, key: like))
        } else if liked {
            buffer.draw(Format.heart(true), at: heartAt, style: .heart, maxWidth: 1)
        }
        if let cartKey = buttons.cart {
            buffer.button(
                mark, at: markAt, style: cart == .outOfCart ? .dim : .success, maxWidth: width,
                target: .itemButton(area: item.area, index: item.index, key: cartKey))
        } else if cart == .owned {
            buffer.draw(mark, at: markAt, style: .success, maxWidth: width)
        }
    }
}
