import Localization
import FakeNFTCore
import TerminalUI

/// Statistics: users with their place, avatar, name and number of NFTs, loaded page by page.
@MainActor
public final class StatisticsScreen: Screen {
    enum Action: Sendable { case open, sort, last, retry, search, clearSearch }

    static var keys: KeyMap<Action> {
        KeyMap(
            "statistics",
            [
                KeyBinding([.enter], tr(.openUser), hint: tr(.hintOpen), .open),
                KeyBinding([.char("s")], tr(.sortUsers), hint: tr(.hintSort), .sort),
                KeyBinding([.end, .char("G")], tr(.lastUser), .last),
                KeyBinding([.char("r")], tr(.retryLoading), hint: tr(.hintRetry), .retry),
            ] + ListSearch.bindings(search: .search, clear: .clearSearch))
    }
    static var sortOptions: [(label: String, value: SortPreferences.Statistics)] {
        [(tr(.byUserName), .name), (tr(.byRating), .rating)]
    }

    public var title: String { tr(.tabStatistics) }
    public var usage: UsageEvent.Screen { .statistics }
    public let tasks = TaskBag()
    let model: StatisticsViewModel
    /// The users the list shows: the rating's pages, or the search's results (searched on the server).
    let pane: ListPane<User>
    private var sortMenu = SortMenu(StatisticsScreen.sortOptions)
    /// The search on the server for the query being typed (the one before is cancelled).
    private var searchTask: Task<Void, Never>?

    public init(model: StatisticsViewModel) {
        self.model = model
        pane = ListPane(area: "list") { model.found == nil ? model.users : model.found?.value ?? [] }
        pane.moved = { [unowned self] in if model.found == nil { loadAhead() } }
        pane.searched = { [unowned self] in searchFor($0) }
    }

    public var isAnimating: Bool { model.isLoading }

    public func clearKeptSearch() -> Bool { pane.clearSearch() }

    public func didAppear() {
        tasks.once { [model, tasks] in
            tasks.run { await model.followChanges() }
            await model.loadNextPage()
            await model.loadPlaces()
        }
    }

    public var layers: [KeyLayer] {
        if let menu = sortMenu.layer(
            update: { [unowned self] in sortMenu = $0 },
            chosen: { [unowned self] sort in
                pane.select(0)
                model.setSort(sort)
                if let page = model.reserveNextPage() { tasks.run { [model] in await model.fetch(page) } }
                searchFor(pane.search.query)
            })
        {
            return [menu]
        }
        return pane.layers(with: [
            .keys(title, Self.keys, readOnly: model.context.readOnly) { [unowned self] action in use(action) },
            KeyLayer(title: title, help: []) { [unowned self] event in
                guard case .resize(let size) = event else { return nil }
                loadAhead(beyond: size.height / 2)  // the rows a taller terminal shows (two lines each)
                return nil
            },
        ])
    }

    /// What `action`'s key does now.
    private func use(_ action: Action) -> KeyUse {
        switch action {
        case .open:
            // not the row of the page being loaded
            let index = pane.selectedIndex(among: pane.shown.count + (hasExtraRow ? 1 : 0))
            guard index < pane.shown.count, let user = pane.selected else { return .passes }
            let context = model.context
            return .command { .push(UserScreen(user: user, context: context)) }
        // nothing to sort or search on the error screen
        case .search: return failedFirstPage ? .passes : .run { [pane] in pane.beginSearch() }
        case .sort:
            guard !failedFirstPage else { return .passes }
            return .run { [unowned self] in sortMenu.open(current: model.context.state.sort.statistics) }
        case .clearSearch: return pane.search.isActive ? .run { [pane] in pane.clearSearch() } : .passes
        // Once every user is loaded, the list's own End/G moves there within the key.
        case .last:
            guard model.found == nil && model.hasMore && !failedFirstPage else { return .passes }
            return .run { [unowned self] in
                pane.selectLast()  // the last row now, the last user once everyone is loaded
                tasks.run { [model] in await model.loadAll() }
            }
        case .retry:  // nothing to retry (and no "Retry loading" in the palette) unless something failed
            guard showsFailure else { return .passes }
            return .run { [unowned self] in
                if pane.search.isActive {
                    searchFor(pane.search.query)
                } else {
                    tasks.run { [model] in await model.loadNextPage() }
                }
            }
        }
    }

    /// True when the list ends with a row for the page being loaded (or its error).
    private var hasExtraRow: Bool { model.found == nil && (model.hasMore || model.failure != nil) }

    /// True when the rating's first page could not be read: the screen is the error and Retry.
    private var failedFirstPage: Bool { model.found == nil && model.users.isEmpty && model.failure != nil }

    /// True when something shown failed to load (the rating's next page, or the search).
    private var showsFailure: Bool { model.found.map { $0.failure != nil } ?? (model.failure != nil) }

    /// Starts the search for `query` (cancelling the one before); an empty query ends it.
    private func searchFor(_ query: String) {
        searchTask?.cancel()
        searchTask = tasks.run { [model] in await model.search(query) }
    }

    /// Keeps a page ahead of the selection and of what is visible (also after a resize).
    private func loadAhead(beyond rows: Int = 0) {
        let list = pane.selection
        if model.needsPage(upTo: max(list.selected, list.visibleRange.upperBound) + rows),
            let page = model.reserveNextPage()
        {
            tasks.run { [model] in await model.fetch(page) }
        }
    }

    public func render(in rect: Rect, buffer: inout Buffer) {
        let users = pane.shown, query = pane.search.query
        let (header, body) = rect.rows(.length(2), .fill)
        let sortName = sortMenu.name(of: model.context.state.sort.statistics)
        let status = model.total.map { tr(.usersSortedTotal, sortName, $0) } ?? tr(.usersSorted, sortName)
        pane.renderHeader(status, total: model.total ?? model.users.count, what: .users, in: header, buffer: &buffer)
        if pane.search.isShown, !model.serverSearches {
            let note = tr(.serverCannotSearch, Format.count(model.users.count, .users))
            buffer.render(Label(note, style: .dim), in: header.rows(.length(1), .fill).1)
        }
        guard !users.isEmpty else {
            if let status = emptyStatus {
                buffer.render(status, in: body)
            } else {
                let none = model.found == nil ? tr(.noUsers) : tr(.noUserMatches, query)
                buffer.render(EmptyNote(none), in: body)
            }
            return
        }
        let extraRow = hasExtraRow
        let (listArea, detail) = DetailPane.split(body)
        let selected = pane.selectedIndex(among: users.count + (extraRow ? 1 : 0))
        let pictures = model.context.pictures
        if let detail, selected < users.count {
            let user = users[selected]
            buffer.render(
                UserDetailView(user: user, place: model.place(of: user, at: selected), pictures: pictures), in: detail)
        }
        let more = MoreUsersRow(failure: model.failure)
        pane.render(
            in: listArea, rowHeight: 2, buffer: &buffer,
            extraRow: extraRow ? { rect, buffer in buffer.render(more, in: rect) } : nil
        ) { [model] user, index, row, selected, buffer in
            let view = UserRowView(
                user: user, place: model.place(of: user, at: index), selected: selected, highlight: query,
                pictures: pictures)
            buffer.render(view, in: row)
        }
        buffer.render(sortMenu, in: rect)
    }

    /// With no user to show: the search's spinner or failure when searching, else the rating's;
    /// nil when nothing loads and nothing failed.
    private var emptyStatus: StatusView? {
        let failure = model.found.map { $0.failure } ?? model.failure
        if let failure { return StatusView.failure(failure.message, what: .users, retry: Self.keys.key(for: .retry)) }
        let loading = model.found.map { $0.isLoading } ?? model.isLoading
        return loading ? StatusView.loading(.users) : nil
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
