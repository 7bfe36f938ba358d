import FakeNFTCore
import Observation

/// A user's NFTs.
@MainActor @Observable
public final class UserCollectionViewModel: ViewModel {
    public private(set) var nfts: Loadable<[NFT], APIError> = .loading
    public let user: User
    @ObservationIgnored let context: AppContext

    public init(user: User, context: AppContext) {
        self.user = user
        self.context = context
    }

    public func load() async {
        await load(\.nfts) { try await context.listedNFTs(ids: user.nfts) }
    }

    public func isLiked(_ nft: NFT) -> Bool { context.state.likes.contains(nft.id) }
    public func isInCart(_ nft: NFT) -> Bool { context.state.cartIDs.contains(nft.id) }
}
