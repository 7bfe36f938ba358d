import FakeNFTCore
import Observation

/// A user's NFTs.
@MainActor @Observable
final class UserCollectionViewModel: ViewModel {
    private(set) var nfts: Loadable<[NFT], APIError> = .loading
    let user: User
    @ObservationIgnored let context: AppContext

    init(user: User, context: AppContext) {
        self.user = user
        self.context = context
    }

    func load() async {
        await load(\.nfts) { try await context.listedNFTs(ids: user.nfts) }
    }
}
