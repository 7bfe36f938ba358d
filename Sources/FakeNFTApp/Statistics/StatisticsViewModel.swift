import FakeNFTCore
import Localization
import Foundation
import Observation

/// The users' rating: pages of users loaded as the list scrolls, in the chosen order (persisted).
@MainActor @Observable
public final class StatisticsViewModel {
    public private(set) var users: [User] = []
    public private(set) var hasMore = true
    public private(set) var loadingPage: Int?
    /// Why the last page could not be loaded.
    public private(set) var failure: APIError?
    /// Each user's place in the rating (1 is the highest), once the whole rating is read.
    private(set) var places: [String: Int] = [:]
    /// Whether the last read of the whole rating failed (the places are unknown, not coming).
    private(set) var placesFailed = false
    /// How many users there are, once known.
    private(set) var total: Int?
    /// The users matching the search (nil without one): from the server, or from the pages
    /// loaded when the server cannot search.
    private(set) var found: Loadable<[User], APIError>?
    /// False once the server ignored `name=` (an extension of `fakenft serve`).
    private(set) var serverSearches = true
    @ObservationIgnored let context: AppContext
    @ObservationIgnored private var nextPage = 0
    /// Load the next page when the selection comes this close to the end.
    static let prefetchDistance = 20

    public init(context: AppContext) { self.context = context }

    /// Takes each change of a user shown (live updates) until cancelled (the screen owns this).
    func followChanges() async {
        for await _ in context.services.users.changes() { await takeChangedUsers() }
    }

    /// Rows whose user changed on the server (live updates) show the new figures, in place.
    func takeChangedUsers() async {
        let changed = await context.services.users.changedUsers()
        guard !changed.isEmpty else { return }
        users = users.map { changed[$0.id] ?? $0 }
        if case .loaded(let list) = found { found = .loaded(list.map { changed[$0.id] ?? $0 }) }
    }

    public var sorting: UserService.Sorting { context.state.sort.statistics == .name ? .name : .rating }
    public var isLoading: Bool { loadingPage != nil }

    /// True when users up to `index` (plus a margin) are neither loaded nor loading.
    public func needsPage(upTo index: Int) -> Bool {
        hasMore && loadingPage == nil && index + Self.prefetchDistance >= users.count
    }

    /// Loads the next page, unless one is loading or there is none.
    public func loadNextPage() async {
        guard let page = reserveNextPage() else { return }
        await fetch(page)
    }

    /// Marks the next page as loading at once, so that calls before its task runs start
    /// nothing more; nil when a page is loading or there is none.
    public func reserveNextPage() -> Int? {
        guard hasMore, loadingPage == nil else { return nil }
        loadingPage = nextPage
        failure = nil
        return nextPage
    }

    /// Loads a page reserved with ``reserveNextPage()``.
    public func fetch(_ page: Int) async {
        let sorting = self.sorting
        do {
            let fresh = try await context.services.users.page(page, sorting: sorting)
            guard sorting == self.sorting else { return }  // the order changed meanwhile: a new first page is coming
            guard !Task.isCancelled else {
                loadingPage = nil
                return
            }
            users += fresh
            nextPage = page + 1
            hasMore = fresh.count == UserService.pageSize
            if !hasMore { total = users.count }
        } catch {
            guard sorting == self.sorting else { return }
            failure = APIError(thrown: error)
        }
        loadingPage = nil
    }

    /// Reads the whole rating once (in bulk pages): every user's place, and the total. When it
    /// cannot be read (offline), the places and the total as last known (``UserService/ranking()``),
    /// the rest "?"; a toast says so when the total is not known either.
    func loadPlaces() async {
        guard places.isEmpty || placesFailed else { return }
        placesFailed = false
        do { _ = try await context.services.users.all(sorting: .rating) } catch {
            guard !Task.isCancelled else { return }
            placesFailed = true
            let known = await context.services.users.ranking()
            places = known.places
            total = known.count ?? total
            if known.count == nil { context.state.tell(APIError(thrown: error), as: .placesFailed) }
            return
        }
        guard !Task.isCancelled else { return }
        (places, total) = await context.services.users.ranking()
    }

    /// Reads every user in the current order, so the list can go to its end.
    func loadAll() async {
        guard hasMore else { return }
        let sorting = self.sorting
        loadingPage = nextPage
        failure = nil
        do {
            let everyone = try await context.services.users.all(sorting: sorting)
            guard sorting == self.sorting else { return }
            users = everyone
            hasMore = false
            total = everyone.count
        } catch {
            failure = APIError(thrown: error)
        }
        loadingPage = nil
    }

    /// `user`'s place in the rating as shown whatever the order: "…" while the rating is read, "?"
    /// when it could not be.
    func place(of user: User, at index: Int) -> String {
        let place = sorting == .rating && found == nil ? index + 1 : places[user.id]
        return place.map(String.init) ?? (placesFailed ? "?" : "…")
    }

    /// Finds the users whose name contains `query` on the server; against a server that ignores
    /// the `name=` extension (its answer has other names), among the pages loaded. An empty
    /// query ends the search.
    func search(_ query: String) async {
        let key = Format.searchKey(query)
        guard !key.isEmpty else {
            found = nil
            return
        }
        if found?.value == nil { found = .loading }
        func matches(_ user: User) -> Bool { Format.searchKey(user.name).contains(key) }
        do {
            let answer = try await context.services.users.search(name: query, sorting: sorting)
            guard !Task.isCancelled else { return }
            serverSearches = answer.allSatisfy(matches)
            found = .loaded(serverSearches ? answer : users.filter(matches))
        } catch {
            guard !Task.isCancelled else { return }
            found = .failed(APIError(thrown: error))
        }
    }

    /// Changes the order and forgets the pages loaded; the caller loads the first page again.
    public func setSort(_ sort: SortPreferences.Statistics) {
        guard sort != context.state.sort.statistics else { return }
        context.state.updateSort { $0.statistics = sort }
        users = []
        nextPage = 0
        hasMore = true
        loadingPage = nil
    }
}
