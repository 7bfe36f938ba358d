import Localization
import FakeNFTCore
import Foundation
import Observation
import TerminalUI

/// The list of collections: loading and sorting (persisted).
@MainActor @Observable
final class CatalogViewModel: ViewModel {
    private(set) var collections: Loadable<[NFTCollection], APIError> = .loading
    @ObservationIgnored let context: AppContext

    init(context: AppContext) { self.context = context }

    var sort: SortPreferences.Catalog { context.state.sort.catalog }

    /// The collections, sorted.
    var visible: [NFTCollection] {
        let all = collections.value ?? []
        let sorted: [NFTCollection]
        switch sort {
        case .name: sorted = all.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        case .nftCount:
            sorted = all.sorted { $0.nfts.count != $1.nfts.count ? $0.nfts.count > $1.nfts.count : $0.name < $1.name }
        }
        return sorted
    }

    /// Loads the collections, showing those the last run saw meanwhile; a load that fails keeps
    /// the list shown and says why (the tab bar, when the server cannot be reached; else a toast).
    func load() async {
        if collections.value == nil, let remembered = await context.services.catalog.rememberedCollections() {
            collections = .loaded(remembered)
        }
        let shown = collections.value
        await load(\.collections, keepingValue: true) { try await context.services.catalog.loadCollections() }
        guard let failure = collections.failure else {
            if collections.value != nil { context.state.reached() }
            return
        }
        guard let shown else {
            context.state.unreachable(failure)  // the tab shows the failure itself
            return
        }
        collections = .loaded(shown)
        context.state.tell(failure, as: .collectionsReloadFailed)
    }

    func setSort(_ sort: SortPreferences.Catalog) {
        context.state.updateSort { $0.catalog = sort }
    }
}
