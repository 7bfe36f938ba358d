import Localization
import FakeNFTCore
import TerminalUI

/// One user: photo, name, description, a link to their site and their NFT collection.
@MainActor
final class UserScreen: Screen {
    enum Row: Int, CaseIterable { case website, collection }

    static var keys: KeyMap<Bool> {
        KeyMap("user", [KeyBinding([.enter], tr(.openRow), hint: tr(.hintOpen), name: "open", true)])
    }

    let user: User
    let context: AppContext
    let tasks = TaskBag()
    private let rows = ListPane(area: "rows") { Row.allCases }

    init(user: User, context: AppContext) {
        self.user = user
        self.context = context
    }

    var title: String { user.name }
    var usage: UsageEvent.Screen { .user }
    var usageItem: String? { user.id }

    var layers: [KeyLayer] {
        rows.layers(with: [
            .keys(user.name, Self.keys, readOnly: context.readOnly) { [unowned self] _ in
                .command { [unowned self] in open(rows.selected ?? .website) }
            }
        ])
    }

    private func open(_ row: Row) -> ScreenCommand {
        switch row {
        case .website:
            guard !user.website.isEmpty else {
                context.effects.show(Toast(tr(.userNoWebsite, user.name), kind: .error))
                return .handled
            }
            return .push(ReaderScreen(model: ReaderViewModel(url: user.website, effects: context.effects)))
        case .collection:
            return .push(UserCollectionScreen(model: UserCollectionViewModel(user: user, context: context)))
        }
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        let (header, links, _) = rect.rows(.length(8), .length(4), .fill)
        let (picture, _, facts) = header.columns(.length(14), .length(2), .fill)
        let (avatar, _) = picture.rows(.length(6), .fill)
        buffer.render(PictureView(user.avatar, label: user.name, pictures: context.pictures), in: avatar)
        let description = (user.description?.isEmpty == false) ? user.description! : tr(.noDescription)
        let (about, _) = facts.rows(.length(7), .fill)  // four rows of description at most
        let lines = [
            Line(user.name, style: .bold, wraps: false), Line(tr(.userRating, user.rating), style: .dim, wraps: false),
            .blank, Line(description, style: user.description == nil ? .dim : .plain),
        ]
        buffer.render(Paragraph(lines), in: about)
        let labels = [tr(.userWebsite), tr(.userCollectionRow, user.nfts.count)]
        rows.render(in: links, rowHeight: 2, buffer: &buffer) { _, index, row, selected, buffer in
            buffer.render(LinkRow(labels[index], selected: selected), in: row)
        }
    }
}
