import FakeNFTCore
import TerminalUI

/// One user: photo, name, description, a link to their site and their NFT collection.
@MainActor
public final class UserScreen: Screen {
    enum Row: Int, CaseIterable { case website, collection }

    static let keys = KeyMap<Bool>([KeyBinding([.enter], "Open the row", hint: "open", true)])

    let user: User
    let context: AppContext
    public let tasks = TaskBag()
    private var rows = ListState(count: Row.allCases.count)
    private var rowsRect = Rect(x: 0, y: 0, width: 0, height: 0)

    public init(user: User, context: AppContext) {
        self.user = user
        self.context = context
    }

    public var title: String { user.name }

    public var layers: [KeyLayer] {
        [
            .keys(user.name, Self.keys) { [unowned self] _ in open(Row(rawValue: rows.selected) ?? .website) },
            .list(rows, in: rowsRect) { [unowned self] in rows = $0 },
        ]
    }

    private func open(_ row: Row) -> ScreenCommand {
        switch row {
        case .website:
            guard !user.website.isEmpty else {
                context.effects.show(Toast("\(user.name) has no website.", kind: .error))
                return .handled
            }
            return .push(ReaderScreen(model: ReaderViewModel(url: user.website, effects: context.effects)))
        case .collection:
            return .push(UserCollectionScreen(model: UserCollectionViewModel(user: user, context: context)))
        }
    }

    public func render(in rect: Rect, surface: any Surface) {
        PictureView.render(seed: user.avatar, label: user.name, in: Rect(x: rect.x, y: rect.y, width: 14, height: 6),
                           colors: context.colors, surface: surface)
        let x = rect.x + 16, width = rect.width - 16
        surface.draw(user.name, at: Point(x: x, y: rect.y), style: .bold, maxWidth: width)
        surface.draw("Rating \(user.rating)", at: Point(x: x, y: rect.y + 1), style: .dim, maxWidth: width)
        let description = (user.description?.isEmpty == false) ? user.description! : "No description."
        for (i, line) in DisplayWidth.wrap(description, width: width, maxLines: 4).enumerated() {
            surface.draw(line, at: Point(x: x, y: rect.y + 3 + i), style: user.description == nil ? .dim : .plain, maxWidth: width)
        }
        let labels = ["Go to the user's website", "NFT collection (\(user.nfts.count))"]
        rowsRect = Rect(x: rect.x, y: rect.y + 8, width: rect.width, height: 4)
        ListView.render(&rows, in: rowsRect, rowHeight: 2, surface: surface) { index, row, selected in
            SelectionMarker.render(selected, at: Point(x: row.x, y: row.y), surface: surface)
            surface.draw(labels[index], at: Point(x: row.x + 2, y: row.y), style: selected ? .selected : .bold, maxWidth: row.width - 6)
            surface.draw("›", at: Point(x: row.maxX - 2, y: row.y), style: .dim, maxWidth: 1)
        }
    }
}
