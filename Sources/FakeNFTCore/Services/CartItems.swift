/// The cart as the Cart screen shows it: the NFTs of the cart's first ``limit`` ids, their
/// details read through the catalog (and cached there). It publishes the NFTs, not only their
/// ids, whenever the cart shown changes, but only while a screen follows it (``follow(_:)``):
/// starting the app asks the server for nothing more until the Cart tab is opened.
public actor CartItems {
    /// The details of the cart's first ``limit`` NFTs, or why they could not be read.
    public typealias Fetched = Result<[NFT], APIError>

    private let catalog: CatalogService
    /// The most NFTs whose details are read (the rest of a huge cart is only counted).
    public nonisolated let limit: Int
    private let broadcast = Broadcast<Fetched>()
    /// The cart's ids as last heard.
    private var cart: [String]?
    /// The ids whose details were published last; nil when none were, or they failed.
    private var fetchedIDs: [String]?
    /// The latest read started: an older one that ends after it publishes nothing.
    private var latest = 0

    public init(catalog: CatalogService, limit: Int = CatalogService.maxListedNFTs) {
        self.catalog = catalog
        self.limit = limit
    }

    /// What was read, the latest first.
    public nonisolated func updates() -> AsyncStream<Fetched> { broadcast.subscribe() }

    /// Reads the details of the cart's NFTs whenever the cart shown (`carts`) changes. Runs until
    /// cancelled.
    public func follow(_ carts: AsyncStream<[String]>) async {
        for await ids in carts {
            cart = ids
            await fetch(ids, force: false)
        }
    }

    /// Reads them again (after a failure), whether or not the cart changed.
    public func refresh() async {
        guard let cart else { return }
        await fetch(cart, force: true)
    }

    private func fetch(_ all: [String], force: Bool) async {
        let ids = Array(all.prefix(limit))
        guard force || ids != fetchedIDs else { return }
        latest += 1
        let request = latest
        let fetched: Fetched
        do {
            fetched = .success(try await catalog.nfts(ids: ids))
        } catch {
            fetched = .failure(APIError(thrown: error))
        }
        guard request == latest, !Task.isCancelled else { return }
        fetchedIDs = (try? fetched.get()) == nil ? nil : ids
        broadcast.publish(fetched)
    }
}
