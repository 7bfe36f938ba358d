import FakeNFTCore
import Foundation

/// The user rating: pages of users loaded as the list scrolls, in the chosen order (persisted).
@MainActor
public final class RatingViewModel {
    public private(set) var users: [User] = []
    public private(set) var hasMore = true
    public private(set) var loadingPage: Int?
    public private(set) var error: String?
    let context: AppContext
    private var nextPage = 0
    /// Load the next page when the selection comes this close to the end.
    static let prefetchDistance = 20

    public init(context: AppContext) { self.context = context }

    public var order: UserService.Order { context.sort.statistics == .name ? .name : .rating }
    public var isLoading: Bool { loadingPage != nil }

    /// Makes sure users up to `index` (plus a margin) are loaded or loading. The page is marked
    /// as loading at once, so repeated calls while it loads start nothing more.
    public func ensureLoaded(upTo index: Int) {
        guard hasMore, loadingPage == nil, index + Self.prefetchDistance >= users.count else { return }
        let page = startLoading()
        Task { await fetch(page) }
    }

    public func loadNextPage() async {
        guard hasMore, loadingPage == nil else { return }
        await fetch(startLoading())
    }

    private func startLoading() -> Int {
        loadingPage = nextPage
        error = nil
        context.invalidate()
        return nextPage
    }

    private func fetch(_ page: Int) async {
        let order = self.order
        do {
            let fresh = try await context.users.page(page, order: order)
            guard order == self.order else { loadingPage = nil; return }   // the order changed meanwhile
            users += fresh
            nextPage = page + 1
            hasMore = fresh.count == UserService.pageSize
        } catch {
            self.error = AppContext.message(for: error)
        }
        loadingPage = nil
        context.invalidate()
    }

    public func setOrder(_ sort: SortPreferences.Statistics) {
        guard sort != context.sort.statistics else { return }
        context.updateSort { $0.statistics = sort }
        users = []
        nextPage = 0
        hasMore = true
        loadingPage = nil
        Task { await loadNextPage() }
    }
}
