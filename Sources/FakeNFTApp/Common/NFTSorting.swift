import Localization
import FakeNFTCore
import Foundation

/// The orders a list of NFTs can be shown in (Cart, My NFTs), and the menu's labels for them.
enum NFTSorting {
    static var options: [(label: String, value: SortPreferences.Items)] {
        [(tr(.byPrice), .price), (tr(.byRating), .rating), (tr(.byName), .name)]
    }

    static func sorted(_ nfts: [NFT], by sort: SortPreferences.Items) -> [NFT] {
        switch sort {
        case .price: return nfts.sorted { $0.price != $1.price ? $0.price < $1.price : $0.name < $1.name }
        case .rating: return nfts.sorted { $0.rating != $1.rating ? $0.rating > $1.rating : $0.name < $1.name }
        case .name: return nfts.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        }
    }
}
