import FakeNFTCore
import TerminalUI

/// One NFT in a grid: picture, name, stars, price, heart and cart mark. Cells (and their
/// pictures) grow on wide terminals.
@MainActor
enum NFTCellView {
    /// The cell for a grid `width` columns wide: 22×10 (a 10×5 picture), 30×14 (14×7) from 150.
    static func size(forWidth width: Int) -> Size { width >= 150 ? Size(width: 30, height: 14) : Size(width: 22, height: 10) }

    static func render(_ nft: NFT, liked: Bool, inCart: Bool, selected: Bool, highlight: String = "", pictures: Pictures, in rect: Rect,
                       buffer: inout Buffer) {
        let inner = rect.inset(dx: 1, dy: 0)
        if selected { buffer.box(Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height), style: .accent) }
        // Picture rows, then name, stars and heart, price and cart mark, and the box's bottom.
        let pictureRows = max(1, rect.height - 5)
        let pictureWidth = min(2 * pictureRows, inner.width - 2)
        PictureView.render(nft.images.first ?? "", label: nft.name,
                           in: Rect(x: inner.x + (inner.width - pictureWidth) / 2, y: rect.y + 1, width: pictureWidth, height: pictureRows),
                           pictures: pictures, buffer: &buffer)
        let x = inner.x + 1, width = inner.width - 2, text = rect.y + 1 + pictureRows
        ListSearch.drawName(nft.name, matching: highlight, at: Point(x: x, y: text), style: selected ? .selected : .bold, maxWidth: width, buffer: &buffer)
        buffer.draw(Format.stars(nft.rating), at: Point(x: x, y: text + 1), style: .star, maxWidth: width)
        buffer.draw(Format.heart(liked), at: Point(x: x + width - 1, y: text + 1),
                     style: liked ? .heart : .dim, maxWidth: 1)
        let mark = Format.cartMark(inCart)
        let price = buffer.draw(Format.price(nft.price), at: Point(x: x, y: text + 2), style: .plain, maxWidth: width)
        if price + 1 + DisplayWidth.of(mark) <= width {
            buffer.draw(mark, at: Point(x: x + width - DisplayWidth.of(mark), y: text + 2), style: inCart ? .success : .dim, maxWidth: width)
        }
    }
}
