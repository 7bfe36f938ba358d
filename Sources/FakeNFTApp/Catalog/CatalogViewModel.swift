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

    /// Loads the collections; a reload that fails keeps the list shown and says why in a toast.
    func load() async {
        let shown = collections.value
        await load(\.collections, keepingValue: true) { try await context.services.catalog.loadCollections() }
        if let shown, let failure = collections.failure {
            collections = .loaded(shown)
            context.effects.show(Toast(tr(.collectionsReloadFailed, failure.message), kind: .error))
        }
    }

    func setSort(_ sort: SortPreferences.Catalog) {
        context.state.updateSort { $0.catalog = sort }
    }
}
