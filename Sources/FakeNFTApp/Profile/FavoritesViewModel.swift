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

    /// Reads the liked NFTs shown (those the server has, and this window's likes on their way).
    func load() async {
        await load(\.fetched) {
            _ = try await context.services.profile.currentOrLoaded()
            return try await context.listedNFTs(ids: context.state.likedIDs)
        }
    }
}
