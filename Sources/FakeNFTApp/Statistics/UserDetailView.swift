import FakeNFTCore
import Localization
import TerminalUI

/// The selected user in a pane of its own (wide terminals): avatar large, rating and place,
/// NFTs, website and description.
@MainActor
struct UserDetailView: Widget {
    var user: User
    var place: String
    var pictures: Pictures

    func render(in rect: Rect, buffer: inout Buffer) {
        let inside = DetailPane.frame(rect, title: user.name, buffer: &buffer)
        let used = DetailPane.picture(
            user.avatar, label: user.name, in: inside, rows: min(12, inside.height / 3), pictures: pictures,
            buffer: &buffer)
        let (_, figures, rest) = inside.rows(.length(used + 1), .length(4), .fill)
        let (name, rating, count) = figures.rows(.length(1), .length(1), .length(1))
        buffer.render(Label(user.name, style: .bold), in: name)
        buffer.render(Label(tr(.userRatingPlace, String(user.ratingValue), place)), in: rating)
        buffer.render(Label(Format.count(user.nfts.count, .nfts)), in: count)
        var text = rest
        if !user.website.isEmpty {
            let (website, _, after) = rest.rows(.length(1), .length(1), .fill)
            buffer.draw(
                user.website, at: Point(x: website.x, y: website.y), maxWidth: website.width, webLink: user.website)
            text = after
        }
        DetailPane.paragraph(user.description ?? "", at: text.y, in: inside, buffer: &buffer)
    }
}
