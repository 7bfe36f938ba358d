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
        let (_, text) = inside.rows(.length(used + 1), .fill)
        var lines = [
            Line(user.name, style: .bold, wraps: false),
            Line(tr(.userRatingPlace, String(user.ratingValue), place), wraps: false),
            Line(Format.count(user.nfts.count, .nfts), wraps: false), .blank,
        ]
        if !user.website.isEmpty { lines += [Line([.webLink(user.website, to: user.website)], wraps: false), .blank] }
        lines.append(Line(user.description ?? ""))
        buffer.render(Paragraph(lines), in: text)
    }
}
