import Localization
import Foundation
import TerminalUI

/// How NFT values are shown.
enum Format {
    /// "★★★☆☆" for a rating of 3 (clamped to 0...5); "3 of 5" in a frame for a screen reader,
    /// which reads it aloud as words, not glyph names.
    static func stars(_ rating: Int, in buffer: Buffer) -> String {
        let r = min(5, max(0, rating))
        if buffer.forScreenReader { return tr(.ratingOutOfFive, r) }
        return String(repeating: "★", count: r) + String(repeating: "☆", count: 5 - r)
    }

    /// "1.23 ETH" ("1,23 ETH" in Russian): the one place prices are written.
    static func price(_ value: Double) -> String { tr(.price, decimal(value)) }

    static func heart(_ liked: Bool) -> String { liked ? "♥" : "♡" }

    /// The cart toggle as the spec draws it: a cross when the NFT is in the cart (pressing
    /// takes it out), a plus when it is not, a tick instead of a button when it is owned.
    static func cartMark(_ place: CartPlace) -> String {
        switch place {
        case .inCart: tr(.cartMarkIn)
        case .outOfCart: tr(.cartMarkOut)
        case .owned: tr(.cartMarkOwned)
        }
    }

    /// The widest cart mark in the current language, so a layout keeps room for any of them.
    static var widestCartMark: Int {
        [CartPlace.inCart, .outOfCart, .owned].map { DisplayWidth.of(cartMark($0)) }.max() ?? 0
    }

    /// What the app counts, with its plural forms as a count ("5 коллекций") and after "of"
    /// ("из 5 коллекций", which Russian declines differently).
    enum Noun {
        case nfts, collections, users, orders

        var counted: TextKey {
            switch self {
            case .nfts: .countNFTs
            case .collections: .countCollections
            case .users: .countUsers
            case .orders: .countOrders
            }
        }

        var outOf: TextKey {
            switch self {
            case .nfts: .ofNFTs
            case .collections: .ofCollections
            case .users: .ofUsers
            case .orders: .ofOrders
            }
        }
    }

    /// "1 NFT", "3 NFTs", "1 коллекция", "5 коллекций": the one plural rule of the app.
    static func count(_ n: Int, _ noun: Noun) -> String { trPlural(noun.counted, n) }

    /// "3 of 21 NFTs", "3 из 21 коллекции": part of a counted whole.
    static func part(_ shown: Int, of total: Int, _ noun: Noun) -> String {
        tr(.partOf, shown, trPlural(noun.outOf, total))
    }

    /// The widest a row's facts are spread: on a 200-column terminal a price stays next to its name.
    static let readableWidth = 100

    /// The part of a list row its facts are spread over: its left ``readableWidth`` columns.
    static func readable(_ row: Rect) -> Rect {
        Rect(x: row.x, y: row.y, width: min(row.width, readableWidth), height: row.height)
    }

    /// "2026-11-29 03:41" in this machine's time zone, for an ISO 8601 time the server wrote;
    /// any other text as it came, at most 25 characters of it.
    static func time(_ iso: String) -> String {
        let parsed =
            (try? Date(iso, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            ?? (try? Date(iso, strategy: .iso8601))
        guard let date = parsed else { return String(iso.prefix(25)) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }

    /// Lower-cased, without diacritics: the key the `/` filter compares.
    static func searchKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
