import FakeNFTCore
import Foundation
import Observation

/// The list of collections: loading, sorting (persisted) and filtering.
@MainActor @Observable
final class CatalogViewModel: ViewModel {
    private(set) var collections: Loadable<[NFTCollection], APIError> = .loading
    /// The `/` filter: names that contain it, ignoring case and diacritics.
    var filter = ""
    @ObservationIgnored let context: AppContext

    init(context: AppContext) { self.context = context }

    var sort: SortPreferences.Catalog { context.state.sort.catalog }

    /// The collections to show: sorted, then filtered.
    var visible: [NFTCollection] {
        let all = collections.value ?? []
        let sorted: [NFTCollection]
        switch sort {
        case .name: sorted = all.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        case .nftCount: sorted = all.sorted { $0.nfts.count != $1.nfts.count ? $0.nfts.count > $1.nfts.count : $0.name < $1.name }
        }
        let key = Format.searchKey(filter)
        return key.isEmpty ? sorted : sorted.filter { Format.searchKey($0.name).contains(key) }
    }

    func load() async {
        await load(\.collections) { try await context.services.catalog.loadCollections() }
    }

    func setSort(_ sort: SortPreferences.Catalog) {
        context.state.updateSort { $0.catalog = sort }
    }
}
