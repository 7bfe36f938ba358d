import FakeNFTCore
import Foundation

/// The list of collections: loading, sorting (persisted) and filtering.
@MainActor
public final class CatalogViewModel {
    public private(set) var state: LoadState = .loading
    private var all: [NFTCollection] = []
    /// The collections to show: sorted, then filtered.
    public private(set) var visible: [NFTCollection] = []
    public var filter = "" { didSet { refresh() } }
    let context: AppContext

    public init(context: AppContext) { self.context = context }

    public var sort: SortPreferences.Catalog { context.sort.catalog }

    public func load() async {
        state = .loading
        context.invalidate()
        do {
            all = try await context.catalog.loadCollections()
            state = .loaded
        } catch {
            state = .failed(AppContext.message(for: error))
        }
        refresh()
        context.invalidate()
    }

    public func setSort(_ sort: SortPreferences.Catalog) {
        context.updateSort { $0.catalog = sort }
        refresh()
    }

    private func refresh() {
        let sorted: [NFTCollection]
        switch sort {
        case .name: sorted = all.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        case .nftCount: sorted = all.sorted { $0.nfts.count != $1.nfts.count ? $0.nfts.count > $1.nfts.count : $0.name < $1.name }
        }
        let key = Format.searchKey(filter)
        visible = key.isEmpty ? sorted : sorted.filter { Format.searchKey($0.name).contains(key) }
    }
}
