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

    var layers: [KeyLayer] {
        rows.layers(with: [.keys(user.name, Self.keys) { [unowned self] _ in open(rows.selected ?? .website) }])
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
        buffer.render(
            PictureView(user.avatar, label: user.name, pictures: context.pictures),
            in: Rect(x: rect.x, y: rect.y, width: 14, height: 6))
        let x = rect.x + 16, width = rect.width - 16
        buffer.draw(user.name, at: Point(x: x, y: rect.y), style: .bold, maxWidth: width)
        buffer.draw(tr(.userRating, user.rating), at: Point(x: x, y: rect.y + 1), style: .dim, maxWidth: width)
        let description = (user.description?.isEmpty == false) ? user.description! : tr(.noDescription)
        for (i, line) in DisplayWidth.wrap(description, width: width, maxLines: 4).enumerated() {
            buffer.draw(
                line, at: Point(x: x, y: rect.y + 3 + i), style: user.description == nil ? .dim : .plain,
                maxWidth: width)
        }
        let labels = [tr(.userWebsite), tr(.userCollectionRow, user.nfts.count)]
        let area = Rect(x: rect.x, y: rect.y + 8, width: rect.width, height: 4)
        rows.render(in: area, rowHeight: 2, buffer: &buffer) { _, index, row, selected, buffer in
            buffer.render(LinkRow(labels[index], selected: selected), in: row)
        }
    }
}
