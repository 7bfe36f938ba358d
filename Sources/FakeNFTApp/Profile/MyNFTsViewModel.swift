import FakeNFTCore
import Observation

/// The NFTs the user owns, sorted (persisted), and their authors' names.
@MainActor @Observable
final class MyNFTsViewModel: ViewModel {
    private(set) var owned: Loadable<[NFT], APIError> = .loading
    /// Authors' names by the NFTs' `author` field, once resolved.
    private(set) var authorNames: [String: AuthorName] = [:]
    @ObservationIgnored let context: AppContext

    init(context: AppContext) { self.context = context }

    var sort: SortPreferences.Items { context.state.sort.myNFTs }

    /// The owned NFTs in the chosen order.
    var items: [NFT] { NFTSorting.sorted(owned.value ?? [], by: sort) }

    func load() async {
        await load(\.owned) {
            try await context.listedNFTs(ids: try await context.services.profile.currentOrLoaded().nfts)
        }
        // gen1 authors are user ids: fetch their names together and show them in one frame.
        let authors = Set((owned.value ?? []).map(\.author)).filter(AuthorName.isUserID)
        authorNames = await AuthorName.resolveAll(authors, users: context.services.users)
    }

    func author(of nft: NFT) -> String { (authorNames[nft.author] ?? AuthorName(nft.author)).name }

    func setSort(_ sort: SortPreferences.Items) {
        context.state.updateSort { $0.myNFTs = sort }
    }
}
