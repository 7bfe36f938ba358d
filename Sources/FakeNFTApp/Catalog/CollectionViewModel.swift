import FakeNFTCore
import Foundation

/// One collection: its NFTs (fetched in parallel) and its author.
@MainActor
public final class CollectionViewModel {
    public let collection: NFTCollection
    public private(set) var state: LoadState = .loading
    public private(set) var nfts: [NFT] = []
    /// The author's display name and page, once resolved.
    public private(set) var author: Author
    let context: AppContext

    /// Who made a collection: gen1 gives a user id, gen2 a site URL or a person's name.
    public struct Author: Equatable {
        public var name: String
        public var website: String?
    }

    public init(collection: NFTCollection, context: AppContext) {
        self.collection = collection
        self.context = context
        author = Self.author(from: collection.author, website: collection.website)
    }

    /// A name for any form of `author`; a user id waits for ``load()`` to become a name.
    static func author(from raw: String, website: String?) -> Author {
        if let url = URL(string: raw), let host = url.host, url.scheme?.hasPrefix("http") == true {
            let name = host.split(separator: ".").first.map { $0.replacingOccurrences(of: "_", with: " ").capitalized } ?? host
            return Author(name: name, website: raw)
        }
        return Author(name: raw.isEmpty ? "unknown" : raw, website: website)
    }

    public func load() async {
        state = .loading
        context.invalidate()
        do {
            nfts = try await context.listedNFTs(ids: collection.nfts)
            state = .loaded
        } catch {
            state = .failed(AppContext.message(for: error))
        }
        context.invalidate()
        if Int(collection.author) != nil, let user = try? await context.users.user(id: collection.author) {
            author = Author(name: user.name, website: user.website.isEmpty ? collection.website : user.website)
            context.invalidate()
        }
    }

    public func isLiked(_ nft: NFT) -> Bool { context.likes.contains(nft.id) }
    public func isInCart(_ nft: NFT) -> Bool { context.cart.contains(nft.id) }
}
