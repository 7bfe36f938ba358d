import FakeNFTCore
import Localization

/// One thing Ctrl-P can go to: a collection, an NFT or a user (the collections' authors among
/// them), its name and where it lives.
struct GoToEntry: Sendable {
    enum Target: Sendable {
        case collection(NFTCollection)
        case nft(NFT, collection: String?)
        case user(User)
    }

    let name: String
    let place: String
    let target: Target
}

/// What Ctrl-P searches, gathered from the services: every collection, their NFTs and every
/// user; a part that cannot be fetched now (offline) gives what was seen before.
enum GoToIndex {
    static func load(_ services: Services) async -> [GoToEntry] {
        let seen = await services.catalog.seen()
        let collections = (try? await services.catalog.knownCollections()) ?? seen.collections
        let nfts = (try? await services.catalog.nfts(ids: collections.flatMap(\.nfts))) ?? seen.nfts
        let users = (try? await services.users.all(sorting: .rating)) ?? []
        return entries(collections: collections, nfts: nfts, users: users)
    }

    /// The entries for these, in this order: collections, NFTs, users.
    static func entries(collections: [NFTCollection], nfts: [NFT], users: [User]) -> [GoToEntry] {
        var collectionOf: [String: String] = [:]
        var authored: [String: [String]] = [:]
        for collection in collections {
            for id in collection.nfts where collectionOf[id] == nil { collectionOf[id] = collection.name }
            authored[collection.author, default: []].append(collection.name)
        }
        return collections.map {
            GoToEntry(name: $0.name, place: tr(.placeCollection, $0.nfts.count), target: .collection($0))
        }
            + nfts.map { nft in
                let collection = collectionOf[nft.id]
                return GoToEntry(
                    name: nft.name, place: collection.map { tr(.placeNFTIn, $0) } ?? tr(.placeNFT),
                    target: .nft(nft, collection: collection))
            }
            + users.map { user in
                let place =
                    authored[user.id].map { tr(.placeAuthor, $0.joined(separator: ", ")) }
                    ?? tr(.placeUser, user.ratingValue)
                return GoToEntry(name: user.name, place: place, target: .user(user))
            }
    }
}
