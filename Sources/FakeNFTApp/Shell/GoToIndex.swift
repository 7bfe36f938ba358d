import FakeNFTCore
import Localization

/// One thing Ctrl-P can go to: a screen of the app, a collection, an NFT or a user (the
/// collections' authors among them), its name and where it lives.
package struct GoToEntry: Sendable {
    enum Target: Sendable {
        case screen(Place)
        case collection(NFTCollection)
        case nft(NFT, collection: String?)
        case user(User)
    }

    /// The app's own screens: the tabs and what Profile opens.
    enum Place: CaseIterable, Sendable {
        case catalog, cart, profile, statistics, myNFTs, favorites, orders, about

        /// The tab it is, or the tab it opens in.
        var tab: Int {
            switch self {
            case .catalog: 0
            case .cart: 1
            case .profile, .myNFTs, .favorites, .orders, .about: 2
            case .statistics: 3
            }
        }

        /// Its title, as its screen shows it.
        var name: String {
            switch self {
            case .catalog: tr(.tabCatalog)
            case .cart: tr(.tabCart)
            case .profile: tr(.tabProfile)
            case .statistics: tr(.tabStatistics)
            case .myNFTs: tr(.myNFTs)
            case .favorites: tr(.favoriteNFTs)
            case .orders: tr(.myOrders)
            case .about: tr(.aboutTitle)
            }
        }

        /// Going there: a tab is shown as it was left, a screen opens over the one in focus.
        @MainActor func command(context: AppContext) -> ScreenCommand {
            switch self {
            case .catalog, .cart, .profile, .statistics: .selectTab(tab)
            case .myNFTs: .push(MyNFTsScreen(model: MyNFTsViewModel(context: context)))
            case .favorites: .push(FavoritesScreen(model: FavoritesViewModel(context: context)))
            case .orders: .push(OrdersScreen(model: OrdersViewModel(context: context)))
            case .about: .push(AboutScreen())
            }
        }
    }

    package let name: String
    let place: String
    let target: Target
}

/// What Ctrl-P searches, gathered from the services: the app's screens, every collection, every
/// NFT the server lists (a server without the list: the collections' first NFTs) and every user;
/// a part that cannot be fetched now (offline) gives what was seen before.
package enum GoToIndex {
    package static func load(_ services: Services) async -> [GoToEntry] {
        let seen = await services.catalog.seen()
        let collections = (try? await services.catalog.knownCollections()) ?? seen.collections
        var listed = try? await services.catalog.everyNFT()
        if listed == nil { listed = try? await services.catalog.nfts(ids: collections.flatMap(\.nfts)) }
        let nfts = listed ?? seen.nfts
        var users = try? await services.users.all(sorting: .rating)
        if users == nil { users = await services.users.known() }
        return entries(collections: collections, nfts: nfts, users: users ?? [])
    }

    /// The entries for these, in this order: screens, collections, NFTs, users.
    static func entries(collections: [NFTCollection], nfts: [NFT], users: [User]) -> [GoToEntry] {
        var collectionOf: [String: String] = [:]
        var authored: [String: [String]] = [:]
        for collection in collections {
            for id in collection.nfts where collectionOf[id] == nil { collectionOf[id] = collection.name }
            authored[collection.author, default: []].append(collection.name)
        }
        let screens = GoToEntry.Place.allCases.map {
            GoToEntry(name: $0.name, place: tr(.placeScreen), target: .screen($0))
        }
        let collectionEntries = collections.map {
            GoToEntry(name: $0.name, place: tr(.placeCollection, $0.nfts.count), target: .collection($0))
        }
        let nftEntries = nfts.map { nft in
            let collection = collectionOf[nft.id]
            return GoToEntry(
                name: nft.name, place: collection.map { tr(.placeNFTIn, $0) } ?? tr(.placeNFT),
                target: .nft(nft, collection: collection))
        }
        let userEntries = users.map { user in
            let place =
                authored[user.id].map { tr(.placeAuthor, $0.joined(separator: ", ")) }
                ?? tr(.placeUser, user.ratingValue)
            return GoToEntry(name: user.name, place: place, target: .user(user))
        }
        return screens + collectionEntries + nftEntries + userEntries
    }
}
