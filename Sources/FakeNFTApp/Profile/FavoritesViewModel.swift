import FakeNFTCore
import Observation

/// The liked NFTs, fetched once; the grid follows the likes as they change.
@MainActor @Observable
final class FavoritesViewModel: ViewModel {
    private(set) var fetched: Loadable<[NFT], APIError> = .loading
    @ObservationIgnored let context: AppContext

    init(context: AppContext) { self.context = context }

    /// The NFTs still liked, in the order of the profile's likes.
    var items: [NFT] { (fetched.value ?? []).filter { context.state.likes.contains($0.id) } }

    func load() async {
        await load(\.fetched) {
            let profile = try await context.services.profile.currentOrLoaded()
            return try await context.listedNFTs(ids: profile.likes)
        }
    }

    func unlike(_ nft: NFT) { context.state.toggleLike(nft) }
}
