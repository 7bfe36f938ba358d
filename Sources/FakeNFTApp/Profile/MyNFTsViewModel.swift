import FakeNFTCore
import Observation

/// The NFTs the user owns, sorted (persisted), and their authors' names.
@MainActor @Observable
public final class MyNFTsViewModel: ViewModel {
    public private(set) var owned: Loadable<[NFT], APIError> = .loading
    /// Authors' names by the NFTs' `author` field, once resolved.
    private(set) var authorNames: [String: AuthorName] = [:]
    @ObservationIgnored let context: AppContext

    public init(context: AppContext) { self.context = context }

    public var sort: SortPreferences.Items { context.state.sort.myNFTs }

    /// The owned NFTs in the chosen order.
    public var items: [NFT] { NFTSorting.sorted(owned.value ?? [], by: sort) }

    public func load() async {
        let ids = context.state.profile?.nfts ?? []
        await load(\.owned) { try await context.listedNFTs(ids: ids) }
        // gen1 authors are user ids: fetch their names together and show them in one frame.
        let authors = Set((owned.value ?? []).map(\.author)).filter(AuthorName.isUserID)
        authorNames = await AuthorName.resolveAll(authors, users: context.services.users)
    }

    public func author(of nft: NFT) -> String { (authorNames[nft.author] ?? AuthorName(nft.author)).name }

    public func setSort(_ sort: SortPreferences.Items) {
        context.state.updateSort { $0.myNFTs = sort }
    }
}
