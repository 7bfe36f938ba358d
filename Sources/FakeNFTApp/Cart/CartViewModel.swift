import FakeNFTCore
import Foundation
import Observation

/// The cart: its NFTs with details, sorted (persisted), the count and total of what is shown,
/// and removal.
@MainActor @Observable
final class CartViewModel: ViewModel {
    /// Details of the cart's NFTs, as last fetched.
    private(set) var fetched: Loadable<[NFT], APIError> = .loading
    @ObservationIgnored let context: AppContext
    @ObservationIgnored private var fetchedIDs: [String]?

    /// The most cart items fetched and shown (as many as the catalog fetches for one list).
    static let maxShown = CatalogService.maxListedNFTs

    init(context: AppContext) { self.context = context }

    /// The cart's ids as the app state has them (nil until the order is loaded).
    var cart: [String]? { context.state.cart }

    /// Cart items beyond ``maxShown``, not fetched or shown.
    var hiddenCount: Int { max(0, context.state.cartIDs.count - Self.maxShown) }

    var sort: SortPreferences.Items { context.state.sort.cart }

    /// The rows on screen: the fetched NFTs still in the cart (a removal shows at once), sorted.
    var visibleItems: [NFT] {
        let inCart = Set(context.state.cartIDs.prefix(Self.maxShown))
        return NFTSorting.sorted((fetched.value ?? []).filter { inCart.contains($0.id) }, by: sort)
    }

    /// The sum of the prices of ``visibleItems``: always the rows on screen.
    var total: Double { visibleItems.reduce(0) { $0 + $1.price } }

    /// Keeps the details in step with the cart: fetches them whenever the cart changes (it may
    /// arrive after the screen appeared, or change in another tab). Runs until cancelled.
    func follow() async {
        for await _ in Observations({ [unowned self] in context.state.cart }) {
            await refresh()
        }
    }

    /// Loads again: the cart itself when it could not be loaded, else its NFTs' details.
    func reload() async {
        if context.state.cart == nil { await context.state.loadCart() } else { await refresh(force: true) }
    }

    /// Fetches details for the cart's NFTs when the cart changed since the last time.
    func refresh(force: Bool = false) async {
        guard let cart = context.state.cart else { return }
        let ids = Array(cart.prefix(Self.maxShown))
        guard force || ids != fetchedIDs else { return }
        await load(\.fetched, keepingValue: true) { try await context.services.catalog.nfts(ids: ids) }
        if fetched.value != nil { fetchedIDs = ids }
    }

    func setSort(_ sort: SortPreferences.Items) {
        context.state.updateSort { $0.cart = sort }
    }

    /// Removes an NFT from the cart (after the user confirmed).
    func remove(_ nft: NFT) {
        context.state.toggleCart(nft)
    }
}
