import Foundation

/// How NFT values are shown.
enum Format {
    /// "★★★☆☆" for a rating of 3 (clamped to 0...5).
    static func stars(_ rating: Int) -> String {
        let r = min(5, max(0, rating))
        return String(repeating: "★", count: r) + String(repeating: "☆", count: 5 - r)
    }

    /// "1.23 ETH".
    static func price(_ value: Double) -> String { String(format: "%.2f ETH", value) }

    static func heart(_ liked: Bool) -> String { liked ? "♥" : "♡" }

    /// The cart toggle as the spec draws it: a cross when the NFT is in the cart (pressing
    /// takes it out), a plus when it is not.
    static func cartMark(_ inCart: Bool) -> String { inCart ? "[✕ cart]" : "[+ cart]" }

    /// "1 NFT", "3 NFTs", "1 collection", "9 collections": the one plural rule of the app.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// The widest a row's facts are spread: on a 200-column terminal a price stays next to its name.
    static let readableWidth = 100

    /// Lower-cased, without diacritics: the key the `/` filter compares.
    static func searchKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
