import FakeNFTCore
import TerminalUI

/// One NFT in a list (Cart, My NFTs): marker, picture, name with stars, a second line, price.
@MainActor
struct NFTRowView: Widget {
    static let height = 3

    var nft: NFT
    var subtitle: String?
    var selected: Bool
    /// The search's query, underlined in the name.
    var highlight = ""
    var pictures: Pictures

    func render(in full: Rect, buffer: inout Buffer) {
        // marker | picture | gap | name, stars, subtitle | price, within a readable width
        let (marker, picture, _, text, price) = Format.readable(full).columns(
            .length(2), .length(6), .length(2), .fill, .length(16))
        buffer.render(SelectionMarker(selected: selected), in: Rect(x: marker.x, y: marker.y, width: 1, height: 2))
        let (cover, _) = picture.rows(.length(2), .fill)
        buffer.render(
            PictureView(nft.images.first ?? "", label: nft.name, pictures: pictures),
            in: cover)
        let used = min(text.width, DisplayWidth.of(nft.name))
        ListSearch.drawName(
            nft.name, matching: highlight, at: Point(x: text.x, y: text.y), style: selected ? .selected : .bold,
            maxWidth: text.width, buffer: &buffer)
        if let subtitle {
            buffer.draw(
                " " + Format.stars(nft.rating), at: Point(x: text.x + used, y: text.y), style: .star, maxWidth: 6)
            buffer.draw(subtitle, at: Point(x: text.x, y: text.y + 1), style: .dim, maxWidth: text.width)
        } else {
            buffer.draw(Format.stars(nft.rating), at: Point(x: text.x, y: text.y + 1), style: .star, maxWidth: 5)
        }
        let amount = Format.price(nft.price)
        buffer.draw(
            amount, at: Point(x: price.maxX - DisplayWidth.of(amount) - 1, y: price.y), style: .plain,
            maxWidth: price.width)
    }
}

/// The `▌` bar that marks the selected row of a list (the row's text is highlighted too).
@MainActor
struct SelectionMarker: Widget {
    var selected: Bool

    /// The bar down the first column of `rect`, when selected.
    func render(in rect: Rect, buffer: inout Buffer) {
        guard selected else { return }
        for y in rect.y..<rect.maxY { buffer.draw("▌", at: Point(x: rect.x, y: y), style: .accent, maxWidth: 1) }
    }
}

/// A row that opens something (Profile's and a user's rows): the marker, its label, and "›".
@MainActor
struct LinkRow: Widget {
    var label: String
    var selected: Bool

    init(_ label: String, selected: Bool) {
        self.label = label
        self.selected = selected
    }

    func render(in row: Rect, buffer: inout Buffer) {
        buffer.render(SelectionMarker(selected: selected), in: Rect(x: row.x, y: row.y, width: 1, height: 1))
        buffer.draw(
            label, at: Point(x: row.x + 2, y: row.y), style: selected ? .selected : .bold, maxWidth: row.width - 6)
        buffer.draw("›", at: Point(x: row.maxX - 2, y: row.y), style: .dim, maxWidth: 1)
    }
}

/// A short message centred in an empty screen ("Cart is empty").
@MainActor
struct EmptyStateView: Widget {
    var text: String

    init(_ text: String) { self.text = text }

    func render(in rect: Rect, buffer: inout Buffer) {
        buffer.draw(
            text, at: Point(x: rect.x + max(0, (rect.width - DisplayWidth.of(text)) / 2), y: rect.y + rect.height / 2),
            style: .bold, maxWidth: rect.width)
    }
}
