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
            .keys(
                title, Self.keys, enabled: { [unowned self] in enabled($0) },
                hinted: { [unowned self] in $0 != .retry || showsFailure }
            ) { [unowned self] in perform($0) },
            KeyLayer(title: title, help: []) { [unowned self] event in
                guard case .resize(let size) = event else { return nil }
                loadAhead(beyond: size.height / 2)  // the rows a taller terminal shows (two lines each)
                return nil
            },
        ])
    }

    private func enabled(_ action: Action) -> Bool {
        switch action {
        // not the row of the page being loaded
        case .open: return pane.selectedIndex(among: pane.shown.count + (hasExtraRow ? 1 : 0)) < pane.shown.count
        case .clearSearch: return pane.search.isActive
        // Once every user is loaded, the list's own End/G moves there within the key.
        case .last: return model.found == nil && model.hasMore && !failedFirstPage
        case .sort, .search: return !failedFirstPage  // nothing to sort or search on the error screen
        case .retry: return true
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

    private func perform(_ action: Action) -> ScreenCommand {
        switch action {
        case .open:
            guard let user = pane.selected else { return .handled }
            return .push(UserScreen(user: user, context: model.context))
        case .search: pane.beginSearch()
        case .clearSearch: pane.clearSearch()
        case .sort: sortMenu.open(current: model.context.state.sort.statistics)
        case .last:
            pane.selectLast()  // the last row now, the last user once everyone is loaded
            tasks.run { [model] in await model.loadAll() }
        case .retry:
            if pane.search.isActive {
                searchFor(pane.search.query)
            } else {
                tasks.run { [model] in await model.loadNextPage() }
            }
        }
        return .handled
    }

    public func render(in rect: Rect, buffer: inout Buffer) {
        let users = pane.shown, query = pane.search.query
        let sortName = sortMenu.name(of: model.context.state.sort.statistics)
        let (header, body) = rect.rows(.length(2), .fill)
        let status = model.total.map { tr(.usersSortedTotal, sortName, $0) } ?? tr(.usersSorted, sortName)
        pane.renderHeader(
            status, total: model.total ?? model.users.count, what: .users, in: header, buffer: &buffer)
        if pane.search.isShown, !model.serverSearches {
            buffer.draw(
                tr(.serverCannotSearch, Format.count(model.users.count, .users)),
                at: Point(x: rect.x, y: rect.y + 1), style: .dim, maxWidth: rect.width)
        }
        if users.isEmpty {
            // The search's state when searching, else the rating's.
            let failure = model.found.map { $0.failure } ?? model.failure
            let loading = model.found.map { $0.isLoading } ?? model.isLoading
            if let failure {
                buffer.render(
                    StatusView.failure(failure.message, what: .users, retry: Self.keys.key(for: .retry)), in: body)
            } else if loading {
                buffer.render(StatusView.loading(.users), in: body)
            } else {
                buffer.draw(
                    model.found == nil ? tr(.noUsers) : tr(.noUserMatches, query),
                    at: Point(x: body.x + 1, y: body.y + 1),
                    style: .dim, maxWidth: body.width)
            }
            return
        }
        let extraRow = hasExtraRow
        let (listArea, detail) = DetailPane.split(body)
        let selected = pane.selectedIndex(among: users.count + (extraRow ? 1 : 0))
        if let detail, selected < users.count {
            renderDetail(of: users[selected], at: selected, in: detail, buffer: &buffer)
        }
        let pictures = model.context.pictures
        let pageFailure = model.failure
        let loadingRow: (Rect, inout Buffer) -> Void = { full, buffer in
            let (line, _) = Format.readable(full).rows(.length(1), .fill)
            let (_, text) = line.columns(.length(2), .fill)
            if let pageFailure {
                buffer.draw(
                    tr(.pageFailed, pageFailure.message), at: Point(x: text.x, y: text.y), style: .error,
                    maxWidth: text.width)
            } else {
                buffer.render(Spinner(tr(.loadingMoreUsers)), in: text)
            }
        }
        pane.render(in: listArea, rowHeight: 2, buffer: &buffer, extraRow: extraRow ? loadingRow : nil) {
            [model] user, index, full, selected, buffer in
            // Right-aligned figures: the rating (what the list ranks by), then the NFT count.
            let count = Format.count(user.nfts.count, .nfts).leftPadded(to: 8)
            let rating = tr(.ratingColumn, String(user.ratingValue)).leftPadded(to: 12)
            let figures = "\(rating)  \(count)"
            let (line, _) = Format.readable(full).rows(.length(1), .fill)
            let (lead, name, _, numbers, _) = line.columns(
                .length(13), .fill, .length(2), .length(DisplayWidth.of(figures)), .length(1))
            let (marker, place, _, avatar, _) = lead.columns(.length(2), .length(5), .length(1), .length(3), .fill)
            buffer.render(SelectionMarker(selected: selected), in: marker)
            // The place in the rating, whatever the order.
            let placeText = model.place(of: user, at: index)
            buffer.draw(
                placeText.leftPadded(to: 5), at: Point(x: place.x, y: place.y), style: .dim, maxWidth: place.width)
            buffer.render(PictureView(user.avatar, label: user.name, pictures: pictures), in: avatar)
            ListSearch.drawName(
                user.name, matching: query, at: Point(x: name.x, y: name.y), style: selected ? .selected : .bold,
                maxWidth: name.width, buffer: &buffer)
            buffer.draw(figures, at: Point(x: numbers.x, y: numbers.y), style: .plain, maxWidth: numbers.width)
        }
        buffer.render(sortMenu, in: rect)
    }

    /// The selected user in a pane of its own (wide terminals): avatar large, rating and place,
    /// NFTs, description and website.
    private func renderDetail(of user: User, at index: Int, in rect: Rect, buffer: inout Buffer) {
        let inside = DetailPane.frame(rect, title: user.name, buffer: &buffer)
        let used = DetailPane.picture(
            user.avatar, label: user.name, in: inside, rows: min(12, inside.height / 3),
            pictures: model.context.pictures, buffer: &buffer)
        var y = inside.y + used + 1
        buffer.draw(user.name, at: Point(x: inside.x, y: y), style: .bold, maxWidth: inside.width)
        let place = model.place(of: user, at: index)
        buffer.draw(
            tr(.userRatingPlace, String(user.ratingValue), place), at: Point(x: inside.x, y: y + 1), style: .plain,
            maxWidth: inside.width)
        buffer.draw(
            Format.count(user.nfts.count, .nfts), at: Point(x: inside.x, y: y + 2), style: .plain,
            maxWidth: inside.width)
        y += 4
        if !user.website.isEmpty {
            buffer.draw(user.website, at: Point(x: inside.x, y: y), style: .link, maxWidth: inside.width)
            y += 2
        }
        DetailPane.paragraph(user.description ?? "", at: y, in: inside, buffer: &buffer)
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
