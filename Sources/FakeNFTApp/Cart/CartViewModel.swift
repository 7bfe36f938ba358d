import FakeNFTCore
import Foundation

/// The cart: its NFTs with details, sorted (persisted), the total, and removal.
@MainActor
public final class CartViewModel {
    public private(set) var state: LoadState = .loading
    /// The NFTs in the cart, sorted.
    public private(set) var items: [NFT] = []
    let context: AppContext
    private var loadedIDs: [String]?

    /// The most cart items fetched and shown (as many as the catalog fetches for one list).
    public static let maxShown = CatalogService.maxListedNFTs

    public init(context: AppContext) { self.context = context }

    /// Cart items beyond ``maxShown``, not fetched or shown.
    public var hiddenCount: Int { max(0, context.cart.count - Self.maxShown) }

    public var sort: SortPreferences.Items { context.sort.cart }
    public var total: Double { items.reduce(0) { $0 + $1.price } }

    /// Fetches details for the cart's NFTs when the cart changed since the last time.
    public func refresh(force: Bool = false) async {
        let ids = Array(context.cart.prefix(Self.maxShown))
        guard force || ids != loadedIDs else { return }
        if items.isEmpty { state = .loading }
        context.invalidate()
        do {
            let nfts = try await context.catalog.nfts(ids: ids)
            loadedIDs = ids
            items = Self.sorted(nfts, by: sort)
            state = .loaded
        } catch {
            state = .failed(AppContext.message(for: error))
        }
        context.invalidate()
    }

    /// Items as shown now: the cart may have changed (another tab) before details arrive.
    public var visibleItems: [NFT] {
        let inCart = Set(context.cart.prefix(Self.maxShown))
        return items.filter { inCart.contains($0.id) }
    }

    public func setSort(_ sort: SortPreferences.Items) {
        context.updateSort { $0.cart = sort }
        items = Self.sorted(items, by: sort)
    }

    /// Removes an NFT from the cart (after the user confirmed).
    public func remove(_ nft: NFT) {
        context.toggleCart(nft)
    }

    static func sorted(_ nfts: [NFT], by sort: SortPreferences.Items) -> [NFT] {
        switch sort {
        case .price: return nfts.sorted { $0.price != $1.price ? $0.price < $1.price : $0.name < $1.name }
        case .rating: return nfts.sorted { $0.rating != $1.rating ? $0.rating > $1.rating : $0.name < $1.name }
        case .name: return nfts.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        }
    }
}
