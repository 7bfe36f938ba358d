import FakeNFTCore
import TerminalUI

/// One NFT in a grid: picture, name, stars, price, heart and cart mark.
@MainActor
enum NFTCellView {
    static let size = Size(width: 22, height: 10)
    /// Rows of the picture: a square picture is twice as many columns wide.
    static let pictureRows = 5

    static func render(_ nft: NFT, liked: Bool, inCart: Bool, selected: Bool, pictures: Pictures, in rect: Rect, buffer: inout Buffer) {
        let inner = rect.inset(dx: 1, dy: 0)
        if selected { buffer.box(Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height), style: .accent) }
        let pictureWidth = min(2 * Self.pictureRows, inner.width - 2)
        PictureView.render(nft.images.first ?? "", label: nft.name,
                           in: Rect(x: inner.x + (inner.width - pictureWidth) / 2, y: rect.y + 1, width: pictureWidth, height: Self.pictureRows),
                           pictures: pictures, buffer: &buffer)
        let x = inner.x + 1, width = inner.width - 2
        buffer.draw(nft.name, at: Point(x: x, y: rect.y + 6), style: selected ? .selected : .bold, maxWidth: width)
        buffer.draw(Format.stars(nft.rating), at: Point(x: x, y: rect.y + 7), style: Style(foreground: .yellow), maxWidth: width)
        buffer.draw(Format.heart(liked), at: Point(x: x + width - 1, y: rect.y + 7),
                     style: liked ? Style(foreground: .red, bold: true) : .dim, maxWidth: 1)
        let mark = Format.cartMark(inCart)
        let price = buffer.draw(Format.price(nft.price), at: Point(x: x, y: rect.y + 8), style: .plain, maxWidth: width)
        if price + 1 + DisplayWidth.of(mark) <= width {
            buffer.draw(mark, at: Point(x: x + width - DisplayWidth.of(mark), y: rect.y + 8), style: inCart ? .success : .dim, maxWidth: width)
        }
    }
}
