/// The one owner of collections and NFTs: a cache by id, and parallel fetching with a cap on
/// requests in flight (the API has no batch endpoint, so a collection costs one request per NFT).
public actor CatalogService {
    /// Requests in flight at most when fetching many NFTs. 16 rather than 8: a 100-NFT
    /// collection on a server answering in 50 ms needs at least 13 in flight to open in 400 ms
    /// (docs/benchmarks.md).
    public static let maxConcurrentRequests = APIClient.maxConcurrentRequests

    private let api: APIClient
    private var nftCache: [String: NFT] = [:]
    /// The collections as last loaded.
    private var collections: [NFTCollection]?
    /// The collections the last run saw (``LastSeen``), until they are loaded.
    private var remembered: [NFTCollection]?

    public init(api: APIClient) { self.api = api }

    /// Collections asked for per request.
    public static let collectionPageSize = 100
    /// The most collections read (100 pages): a server that never ends a list stops there.
    public static let maxCollections = 10_000

    /// Every collection, page by page until a page comes back short: a count on screen is
    /// never a page size mistaken for a total.
    @discardableResult
    public func loadCollections() async throws -> [NFTCollection] {
        let api = api
        let all = try await Self.everyPage(size: Self.collectionPageSize, most: Self.maxCollections) {
            try await api.collections(page: $0, size: $1)
        }
        collections = all
        return all
    }

    /// Every page of a list, `size` at a time, until a page comes back short or `most` are read.
    private static func everyPage<Item: Sendable>(
        size: Int, most: Int, _ page: @Sendable (Int, Int) async throws -> [Item]
    ) async throws -> [Item] {
        var all: [Item] = []
        var number = 0
        while all.count < most {
            let fresh = try await page(number, size)
            all += fresh
            guard fresh.count == size else { break }
            number += 1
        }
        return all
    }

    /// Takes what the last run saw: its collections to show until they are loaded, its NFTs
    /// as fetched (an NFT never changes once listed).
    public func remember(_ seen: LastSeen) {
        if !seen.collections.isEmpty { remembered = seen.collections }
        for nft in seen.nfts where nftCache[nft.id] == nil { nftCache[nft.id] = nft }
    }

    /// The collections the last run saw, while none are loaded.
    public func rememberedCollections() -> [NFTCollection]? { collections == nil ? remembered : nil }

    /// The collections and NFTs to keep for the next run.
    public func seen() -> (collections: [NFTCollection], nfts: [NFT]) {
        (collections ?? remembered ?? [], Array(nftCache.values))
    }

    /// The collections as last loaded, or loaded now.
    public func knownCollections() async throws -> [NFTCollection] {
        if let collections { return collections }
        return try await loadCollections()
    }

    /// One NFT, from the cache when it was fetched before.
    public func nft(id: String) async throws -> NFT {
        if let cached = nftCache[id] { return cached }
        let nft = try await api.nft(id: id)
        nftCache[id] = nft
        return nft
    }

    /// The most NFTs ``everyNFT()`` reads (200 pages): a server that never ends a list stops there.
    public static let maxIndexedNFTs = 200_000
    public static let nftPageSize = 1_000

    /// Every NFT the server lists, page by page until a page comes back short (for go-to: not
    /// cached, so the saved copy keeps only what was seen).
    public func everyNFT() async throws -> [NFT] {
        let api = api
        return try await Self.everyPage(size: Self.nftPageSize, most: Self.maxIndexedNFTs) {
            try await api.nfts(page: $0, size: $1)
        }
    }

    /// The most NFTs one list asks for: a list of a million ids (a hostile server) would
    /// otherwise mean a million requests.
    public static let maxListedNFTs = 1_000

    /// The NFTs with the first ``maxListedNFTs`` of `ids`, in the same order, fetched in
    /// parallel (at most ``maxConcurrentRequests`` at a time). Fetched ones stay cached even if
    /// another fails.
    public func nfts(ids allIDs: [String]) async throws -> [NFT] {
        let ids = allIDs.prefix(Self.maxListedNFTs)
        let missing = Array(Set(ids.filter { nftCache[$0] == nil }))
        if !missing.isEmpty {
            let api = self.api
            var firstError: (any Error)?
            try await withThrowingTaskGroup(of: Result<NFT, any Error>.self) { group in
                var next = 0
                func launch() {
                    let id = missing[next]
                    next += 1
                    group.addTask { await Result(catching: { try await api.nft(id: id) }) }
                }
                while next < min(Self.maxConcurrentRequests, missing.count) { launch() }
                while let result = try await group.next() {
                    switch result {
                    case .success(let nft): nftCache[nft.id] = nft
                    case .failure(let error): firstError = firstError ?? error
                    }
                    if next < missing.count { launch() }
                }
            }
            if let firstError { throw firstError }
        }
        return ids.compactMap { nftCache[$0] }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
