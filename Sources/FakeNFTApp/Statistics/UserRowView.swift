import FakeNFTCore
import Localization
import TerminalUI

/// One user of the rating: marker, place, avatar, name (the search's query underlined), then
/// right-aligned the rating (what the list ranks by) and the NFT count, within a readable width.
/// On a phone's width the rating and the count go under the name, on the row's second line.
@MainActor
struct UserRowView: Widget {
    /// Below this width the figures go under the name.
    static let narrowWidth = 50

    var user: User
    /// The place in the rating, whatever the order.
    var place: String
    var selected: Bool
    var highlight: String
    var pictures: Pictures

    func render(in full: Rect, buffer: inout Buffer) {
        let (line, below) = Format.readable(full).rows(.length(1), .fill)
        let narrow = line.width < Self.narrowWidth
        let count = Format.count(user.nfts.count, .nfts)
        let rating = tr(.ratingColumn, String(user.ratingValue))
        let figures =
            narrow
            ? Label("\(rating)  \(count)", style: .dim)
            : Label("\(rating.leftPadded(to: 12))  \(count.leftPadded(to: 8))")
        let (lead, name, _, numbers, _) = line.columns(
            .length(13), .fill, .length(2), .length(narrow ? 0 : figures.width), .length(1))
        let (marker, placeArea, _, avatar, _) = lead.columns(.length(2), .length(5), .length(1), .length(3), .fill)
        buffer.render(SelectionMarker(selected: selected), in: marker)
        buffer.render(Label(place.leftPadded(to: 5), style: .dim), in: placeArea)
        buffer.render(PictureView(user.avatar, label: user.name, pictures: pictures), in: avatar)
        ListSearch.drawName(
            user.name, matching: highlight, at: Point(x: name.x, y: name.y), style: selected ? .selected : .bold,
            maxWidth: name.width, buffer: &buffer)
        if !narrow {
            buffer.render(figures, in: numbers)
        } else if below.height > 0 {
            buffer.render(figures, in: Rect(x: name.x, y: below.y, width: name.width, height: 1))
        }
    }
}

/// The row after the loaded users while more are on their way: a spinner, or why the next
/// page failed.
@MainActor
struct MoreUsersRow: Widget {
    var failure: APIError?

    func render(in full: Rect, buffer: inout Buffer) {
        let (line, _) = Format.readable(full).rows(.length(1), .fill)
        let (_, text) = line.columns(.length(2), .fill)
        if let failure {
            buffer.render(Label(tr(.pageFailed, failure.message), style: .error), in: text)
        } else {
            buffer.render(Spinner(tr(.loadingMoreUsers)), in: text)
        }
    }
}
