import FakeNFTCore
import TerminalUI

/// One NFT in a list (Cart, My NFTs): marker, picture, name with stars, a second line, price.
@MainActor
enum NFTRowView {
    static let height = 3

    static func render(_ nft: NFT, subtitle: String?, selected: Bool, colors: Bool, in row: Rect, surface: any Surface) {
        SelectionMarker.render(selected, at: Point(x: row.x, y: row.y), rows: 2, surface: surface)
        PictureView.render(seed: nft.images.first ?? nft.id, label: nft.name, in: Rect(x: row.x + 2, y: row.y, width: 6, height: 2),
                           colors: colors, surface: surface)
        let textWidth = row.width - 26
        let used = surface.draw(nft.name, at: Point(x: row.x + 10, y: row.y), style: selected ? .selected : .bold, maxWidth: textWidth)
        if let subtitle {
            surface.draw(" " + Format.stars(nft.rating), at: Point(x: row.x + 10 + used, y: row.y), style: Style(foreground: .yellow), maxWidth: 6)
            surface.draw(subtitle, at: Point(x: row.x + 10, y: row.y + 1), style: .dim, maxWidth: textWidth)
        } else {
            surface.draw(Format.stars(nft.rating), at: Point(x: row.x + 10, y: row.y + 1), style: Style(foreground: .yellow), maxWidth: 5)
        }
        let price = Format.price(nft.price)
        surface.draw(price, at: Point(x: row.maxX - DisplayWidth.of(price) - 1, y: row.y), style: .plain, maxWidth: 14)
    }
}

/// The `▌` bar that marks the selected row of a list (the row's text is highlighted too).
@MainActor
enum SelectionMarker {
    static func render(_ selected: Bool, at point: Point, rows: Int = 1, surface: any Surface) {
        guard selected else { return }
        for dy in 0..<rows { surface.draw("▌", at: Point(x: point.x, y: point.y + dy), style: .accent, maxWidth: 1) }
    }
}

/// A short message centred in an empty screen ("Cart is empty").
@MainActor
enum EmptyStateView {
    static func render(_ text: String, in rect: Rect, surface: any Surface) {
        surface.draw(text, at: Point(x: rect.x + max(0, (rect.width - DisplayWidth.of(text)) / 2), y: rect.y + rect.height / 2),
                     style: .bold, maxWidth: rect.width)
    }
}
