import Localization
import FakeNFTCore
import Observation

/// One NFT, with the names of its collection and its author as the server knows them.
@MainActor @Observable
final class NFTViewModel: ViewModel {
    let nft: NFT
    /// The collection's name: given when opened from it, else looked up; nil while unknown.
    private(set) var collectionName: String?
    private(set) var author: AuthorName
    @ObservationIgnored let context: AppContext

    /// - Parameter collectionName: the collection the NFT was opened from, when it was.
    init(nft: NFT, collectionName: String? = nil, context: AppContext) {
        self.nft = nft
        self.collectionName = collectionName
        self.context = context
        author = AuthorName(nft.author, website: nft.website)
    }

    var isLiked: Bool { context.state.isLiked(nft) }
    var cartPlace: CartPlace { context.state.cartPlace(nft) }

    /// Resolves the author's name and, when not given, the collection holding the NFT.
    func load() async {
        if AuthorName.isUserID(nft.author) {
            author = await AuthorName.resolved(nft.author, website: nft.website, users: context.services.users)
        }
        if collectionName == nil {
            do {
                let collections = try await context.services.catalog.knownCollections()
                collectionName = collections.first { $0.nfts.contains(nft.id) }?.name ?? tr(.unknown)
            } catch {
                guard !Task.isCancelled else { return }
                collectionName = tr(.unknown)
                context.state.tell(APIError(thrown: error), as: .collectionNameFailed)
            }
        }
    }
}
