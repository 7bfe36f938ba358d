import FakeNFTCore
import Foundation
import Observation

/// One collection: its NFTs (fetched in parallel) and its author.
@MainActor @Observable
final class CollectionViewModel: ViewModel {
    let collection: NFTCollection
    private(set) var nfts: Loadable<[NFT], APIError> = .loading
    /// The author's display name and page, once resolved.
    private(set) var author: AuthorName
    /// Whether the author (a user id) is still being looked up: their page is not known yet.
    private(set) var isResolvingAuthor: Bool
    @ObservationIgnored let context: AppContext

    init(collection: NFTCollection, context: AppContext) {
        self.collection = collection
        self.context = context
        author = AuthorName(collection.author, website: collection.website)
        isResolvingAuthor = AuthorName.isUserID(collection.author)
    }

    func load() async {
        await load(\.nfts) { try await context.listedNFTs(ids: collection.nfts) }
        if AuthorName.isUserID(collection.author) {
            author = await AuthorName.resolved(
                collection.author, website: collection.website, users: context.services.users)
        }
        isResolvingAuthor = false
    }
}
