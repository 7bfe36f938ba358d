import FakeNFTCore
import Foundation
import Observation

/// The cart: its NFTs as the cart service publishes them, sorted (persisted), the count and
/// total of what is shown, and removal. It derives; the service reads.
@MainActor @Observable
final class CartViewModel: ViewModel {
    /// The cart's NFTs as last published (``CartItems``).
    private(set) var fetched: Loadable<[NFT], APIError> = .loading
    @ObservationIgnored let context: AppContext

    /// The most cart items fetched and shown (as many as the catalog fetches for one list).
    var maxShown: Int { context.services.cartItems.limit }

    init(context: AppContext) { self.context = context }

    /// The cart's ids as the app state has them (nil until the order is loaded).
    var cart: [String]? { context.state.cart }

    /// Cart items beyond ``maxShown``, not fetched or shown.
    var hiddenCount: Int { max(0, context.state.cartIDs.count - maxShown) }

    var sort: SortPreferences.Items { context.state.sort.cart }

    /// The rows on screen: the fetched NFTs still in the cart (a removal shows at once), sorted.
    var visibleItems: [NFT] {
        let inCart = Set(context.state.cartIDs.prefix(maxShown))
        return NFTSorting.sorted((fetched.value ?? []).filter { inCart.contains($0.id) }, by: sort)
    }

    /// The sum of the prices of ``visibleItems``: always the rows on screen.
    var total: Double { visibleItems.reduce(0) { $0 + $1.price } }

    /// Shows the cart's NFTs as the service publishes them, and has it follow the order while
    /// the screen is open. Runs until cancelled.
    func follow() async {
        let items = context.services.cartItems
        await withDiscardingTaskGroup { group in
            group.addTask { [carts = context.state.outbox.cartUpdates()] in await items.follow(carts) }
            for await published in items.updates() {
                switch published {
                case .success(let nfts): fetched = .loaded(nfts)
                case .failure(let failure): if failure != .cancelled { fetched = .failed(failure) }
                }
            }
        }
    }

    /// Loads again: the cart itself when it could not be loaded, else its NFTs' details.
    func reload() async {
        guard context.state.cart != nil else { return await context.state.loadCart() }
        if fetched.value == nil { fetched = .loading }
        await context.services.cartItems.refresh()
    }

    func setSort(_ sort: SortPreferences.Items) {
        context.state.updateSort { $0.cart = sort }
    }

    /// Removes an NFT from the cart (after the user confirmed).
    func remove(_ nft: NFT) {
        context.state.toggleCart(nft)
    }
}
