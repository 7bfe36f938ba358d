import FakeNFTCore
import Localization
import Observation

/// One paid order and its NFTs as the catalog has them now (their pictures and names), each at
/// its price then.
@MainActor @Observable
final class OrderViewModel: ViewModel {
    let order: PaidOrder
    /// The catalog's NFTs of the order, by id, once read.
    private(set) var catalog: Loadable<[String: NFT], APIError> = .loading
    @ObservationIgnored let context: AppContext

    init(order: PaidOrder, context: AppContext) {
        self.order = order
        self.context = context
    }

    func load() async {
        await load(\.catalog) {
            let nfts = try await context.services.catalog.nfts(ids: order.items.map(\.nft))
            return Dictionary(nfts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The order's NFTs, each with its price then; one the catalog has not (or not yet) given is
    /// named by its id, without a picture.
    var items: [NFT] {
        let known = catalog.value ?? [:]
        return order.items.map { item in
            var nft =
                known[item.nft]
                ?? NFT(
                    id: item.nft, name: tr(.unnamedNFT, item.nft), images: [], rating: 0, description: "", price: 0,
                    author: "", createdAt: "")
            nft.price = item.price
            return nft
        }
    }
}
