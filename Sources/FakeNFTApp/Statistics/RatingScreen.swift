import FakeNFTCore
import TerminalUI

/// Statistics: users with their place, avatar, name and number of NFTs, loaded page by page.
@MainActor
public final class RatingScreen: Screen {
    enum Action: Sendable { case open, sort, retry }

    static let keys = KeyMap<Action>([
        KeyBinding([.enter], "Open the user", .open),
        KeyBinding([.char("s")], "Sort (by name, by rating)", .sort),
        KeyBinding([.char("r")], "Retry loading", .retry),
    ])
    static let sortOptions: [(label: String, value: SortPreferences.Statistics)] = [("By name", .name), ("By rating", .rating)]

    public let title = "Statistics"
    let model: RatingViewModel
    private(set) var list = ListState()
    private var sortMenu = SortMenu(RatingScreen.sortOptions)
    private var firstAppearance = FirstAppearance()

    public init(model: RatingViewModel) { self.model = model }

    public var keyHelp: [HelpEntry] { Self.keys.helpEntries + [HelpEntry(keys: "↑ ↓ j k PgUp PgDn Home End", text: "Move")] }
    public var hints: [(key: String, label: String)] { [("Enter", "open"), ("s", "sort")] }
    public var isAnimating: Bool { model.isLoading }

    public func didAppear() { firstAppearance.load { await self.model.loadNextPage() } }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        guard case .key(let key) = event else { return .ignored }
        if sortMenu.isOpen {
            if let sort = sortMenu.handle(key) { model.setOrder(sort); list.select(0) }
            return .handled
        }
        if let action = Self.keys.action(for: key) {
            switch action {
            case .open:
                guard list.selected < model.users.count else { return .handled }
                return .push(UserScreen(user: model.users[list.selected], context: model.context))
            case .sort:
                sortMenu.open(current: model.context.sort.statistics)
            case .retry:
                Task { await model.loadNextPage() }
            }
            return .handled
        }
        guard list.handle(key) else { return .ignored }
        model.ensureLoaded(upTo: list.selected)
        return .handled
    }

    public func render(in rect: Rect, surface: any Surface) {
        let users = model.users
        let sortName = sortMenu.name(of: model.context.sort.statistics)
        surface.draw("Users \(sortName)\(model.hasMore ? "" : ", \(users.count) in all")", at: Point(x: rect.x, y: rect.y), style: .dim, maxWidth: rect.width)
        let body = rect.splitTop(2).1
        if users.isEmpty {
            if let error = model.error {
                _ = StatusView.render(.failed(error), what: "the users", in: body, surface: surface)
            } else if model.isLoading {
                _ = StatusView.render(.loading, what: "the users", in: body, surface: surface)
            } else {
                surface.draw("No users.", at: Point(x: body.x + 1, y: body.y + 1), style: .dim, maxWidth: body.width)
            }
            return
        }
        // One extra row at the end for the page being loaded (or its error).
        let extraRow = model.hasMore || model.error != nil
        list.count = users.count + (extraRow ? 1 : 0)
        let colors = model.context.colors
        let pageError = model.error
        ListView.render(&list, in: body, rowHeight: 2, surface: surface) { index, row, selected in
            guard index < users.count else {
                if let error = pageError {
                    surface.draw("✗ \(error) (r to retry)", at: Point(x: row.x + 2, y: row.y), style: .error, maxWidth: row.width - 2)
                } else {
                    Spinner.render("Loading more users…", at: Point(x: row.x + 2, y: row.y), maxWidth: row.width - 2, surface: surface)
                }
                return
            }
            let user = users[index]
            SelectionMarker.render(selected, at: Point(x: row.x, y: row.y), surface: surface)
            surface.draw(String(index + 1).leftPadded(to: 5), at: Point(x: row.x + 1, y: row.y), style: .dim, maxWidth: 5)
            PictureView.render(seed: user.avatar, label: user.name, in: Rect(x: row.x + 8, y: row.y, width: 3, height: 1),
                               colors: colors, surface: surface)
            surface.draw(user.name, at: Point(x: row.x + 13, y: row.y), style: selected ? .selected : .bold, maxWidth: row.width - 26)
            let count = "\(user.nfts.count) NFT"
            surface.draw(count, at: Point(x: row.maxX - DisplayWidth.of(count) - 1, y: row.y), style: .plain, maxWidth: 12)
        }
        // Keep a page ahead of what is visible (also after a resize shows more rows).
        model.ensureLoaded(upTo: list.visibleRange.upperBound)
        sortMenu.render(in: rect, surface: surface)
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
