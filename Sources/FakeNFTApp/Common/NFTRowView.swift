import FakeNFTCore
import TerminalUI

/// One NFT in a list (Cart, My NFTs): marker, picture, name with stars, a second line, price.
@MainActor
struct NFTRowView: Widget {
    static let height = 3

    var nft: NFT
    var subtitle: String?
    var selected: Bool
    /// Marked with Space: drawn with a ✓ before its name.
    var marked = false
    /// The search's query, underlined in the name.
    var highlight = ""
    var pictures: Pictures

    func render(in full: Rect, buffer: inout Buffer) {
        // marker | picture | gap | name, stars, subtitle | price, within a readable width
        let (lines, _) = Format.readable(full).rows(.length(2), .fill)
        let (marker, picture, _, text, price) = lines.columns(.length(2), .length(6), .length(2), .fill, .length(16))
        buffer.render(SelectionMarker(selected: selected), in: marker)
        buffer.render(PictureView(nft.images.first ?? "", label: nft.name, pictures: pictures), in: picture)
        let tick = marked ? buffer.draw("✓ ", at: Point(x: text.x, y: text.y), style: .success, maxWidth: 2) : 0
        let used = tick + min(text.width - tick, DisplayWidth.of(nft.name))
        ListSearch.drawName(
            nft.name, matching: highlight, at: Point(x: text.x + tick, y: text.y), style: selected ? .selected : .bold,
            maxWidth: text.width - tick, buffer: &buffer)
        let amount = Format.price(nft.price), priceStart = price.maxX - DisplayWidth.of(amount) - 1
        if let subtitle {
            buffer.draw(
                " " + Format.stars(nft.rating, in: buffer), at: Point(x: text.x + used, y: text.y), style: .star,
                maxWidth: priceStart - 1 - (text.x + used))  // up to the price: "3 of 5" is wider than stars
            // below the price's line: the price's columns too
            buffer.draw(
                subtitle, at: Point(x: text.x, y: text.y + 1), style: .dim, maxWidth: text.width + price.width - 1)
        } else {
            buffer.draw(
                Format.stars(nft.rating, in: buffer), at: Point(x: text.x, y: text.y + 1), style: .star,
                maxWidth: text.width + price.width - 1)
        }
        buffer.draw(amount, at: Point(x: priceStart, y: price.y), style: .plain, maxWidth: price.width)
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
        let (line, _) = row.rows(.length(1), .fill)
        let (marker, text, _, arrow, _) = line.columns(.length(2), .fill, .length(2), .length(1), .length(1))
        buffer.render(SelectionMarker(selected: selected), in: marker)
        buffer.draw(label, at: Point(x: text.x, y: text.y), style: selected ? .selected : .bold, maxWidth: text.width)
        buffer.draw("›", at: Point(x: arrow.x, y: arrow.y), style: .dim, maxWidth: arrow.width)
    }
}
