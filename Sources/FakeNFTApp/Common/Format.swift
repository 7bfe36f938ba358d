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

    /// The cart mark: "✓ in cart" or "+ cart".
    static func cartMark(_ inCart: Bool) -> String { inCart ? "[✓ cart]" : "[+ cart]" }

    /// Lower-cased, without diacritics: the key the `/` filter compares.
    static func searchKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
