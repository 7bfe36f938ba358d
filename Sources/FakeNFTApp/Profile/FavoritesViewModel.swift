import FakeNFTCore
import Observation

/// The liked NFTs, fetched once; the grid follows the likes as they change.
@MainActor @Observable
public final class FavoritesViewModel: ViewModel {
    public private(set) var fetched: Loadable<[NFT], APIError> = .loading
    @ObservationIgnored let context: AppContext

    public init(context: AppContext) { self.context = context }

    /// The NFTs still liked, in the order of the profile's likes.
    public var items: [NFT] { (fetched.value ?? []).filter { context.state.likes.contains($0.id) } }

    public func load() async {
        let ids = context.state.profile?.likes ?? Array(context.state.likes)
        await load(\.fetched) { try await context.listedNFTs(ids: ids) }
    }

    public func isInCart(_ nft: NFT) -> Bool { context.state.cartIDs.contains(nft.id) }

    public func unlike(_ nft: NFT) { context.state.toggleLike(nft) }
}
