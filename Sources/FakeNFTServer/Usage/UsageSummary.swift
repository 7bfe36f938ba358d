import FakeNFTModels
import Foundation

/// What `fakenft serve --usage-summary DAY` prints: a day's usage as the database holds it
/// (every server of a deployment added up): opens per screen, the funnel catalog → NFT → cart →
/// paid, the actions, the most opened and most liked NFTs, and the rate-the-app prompt's answers.
struct UsageSummary {
    let day: String
    let counts: [UsageKey: Int]
    /// An NFT's name, for the lists of NFTs.
    let nftName: (String) -> String?

    /// How many NFTs each list names.
    static let topCount = 5

    var text: String {
        guard !counts.isEmpty else { return "Usage on \(day) (UTC): no events." }
        let opens = total(by: \.screen) { $0.event == "open" }
        let clicks = total(by: \.action) { $0.event == "click" && $0.screen != UsageEvent.Screen.rating.rawValue }
        let funnel = [
            "catalog \(opens["catalog"] ?? 0)", "NFT \(opens["nft"] ?? 0)",
            "cart \(clicks[UsageEvent.Action.cartAdd.rawValue] ?? 0)", "paid \(opens["success"] ?? 0)",
        ]
        var lines = ["Usage on \(day) (UTC), every server of this database:", "", "Screens opened:"]
        lines += rows(
            UsageEvent.Screen.allCases.compactMap { screen in opens[screen.rawValue].map { (screen.rawValue, $0) } })
        lines += ["", "Funnel: " + funnel.joined(separator: " → "), "", "Actions:"]
        lines += rows(
            UsageEvent.Action.allCases.compactMap { action in clicks[action.rawValue].map { (action.rawValue, $0) } })
        lines += topNFTs("Most opened NFTs:") { $0.event == "open" && $0.screen == "nft" }
        lines += topNFTs("Most liked NFTs:") { $0.event == "click" && $0.action == "like" }
        lines += ratingPrompt
        return lines.joined(separator: "\n")
    }

    /// The NFTs most counted by the keys that pass `kept`, by name, under `title`; none: nothing.
    private func topNFTs(_ title: String, _ kept: (UsageKey) -> Bool) -> [String] {
        let top = total(by: \.item) { kept($0) && !$0.item.isEmpty }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        guard !top.isEmpty else { return [] }
        return ["", title]
            + rows(top.prefix(Self.topCount).map { (Self.plain(nftName($0.key) ?? "?") + " (\($0.key))", $0.value) })
    }

    /// The rate-the-app prompt's answers (a `rate`'s stars are kept as its action) and the average.
    private var ratingPrompt: [String] {
        let stars = total(by: \.action) { $0.event == "rate" }
        let answers = total(by: \.action) { $0.event == "click" && $0.screen == UsageEvent.Screen.rating.rawValue }
        guard !stars.isEmpty || !answers.isEmpty else { return [] }
        let given = (1...5).reversed().compactMap { star in stars[String(star)].map { ("\(star) ★", $0) } }
        let declined = [("not now", answers["not-now"]), ("don't ask again", answers["never"])].compactMap {
            name, count in
            count.map { (name, $0) }
        }
        var lines = ["", "Rating prompt:"] + rows(given + declined)
        // counts are the database's: added without trapping, however large
        let rated = given.reduce(0) { $0 &+ $1.1 }, sum = (1...5).reduce(0) { $0 &+ $1 &* (stars[String($1)] ?? 0) }
        if rated > 0 { lines.append(String(format: "  average %.1f ★ of %d", Double(sum) / Double(rated), rated)) }
        return lines
    }

    /// The counts of the keys that pass `kept`, added up by one of their fields.
    private func total(by field: KeyPath<UsageKey, String>, where kept: (UsageKey) -> Bool) -> [String: Int] {
        counts.reduce(into: [:]) { totals, entry in
            if kept(entry.key) { totals[entry.key[keyPath: field], default: 0] &+= entry.value }
        }
    }

    /// Names and counts, the counts in a column.
    private func rows(_ entries: [(String, Int)]) -> [String] {
        let width = entries.map(\.0.count).max() ?? 0
        return entries.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  \($0.1)" }
    }

    /// `text` without control or format characters (a name is data: it never moves a terminal's cursor).
    static func plain(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { ![.control, .format].contains($0.properties.generalCategory) }
            ).prefix(60))
    }
}

extension FakeNFTServer {
    /// The summary of `day` (``usageDay(_:now:)``) in the database `configuration` names.
    public static func usageSummary(_ configuration: ServerConfiguration, day: String) async throws -> String {
        let (counts, nfts) = try await withStore(configuration) { store in
            (try await store.database.usage(on: day), store.latest[catalog: .nfts])
        }
        return UsageSummary(day: day, counts: counts) { id in
            nfts.item(id: id).flatMap { try? JSONDecoder().decode(NFT.self, from: Data($0.readableBytesView)).name }
        }.text
    }

    /// The day `text` names, `YYYY-MM-DD` in UTC: `today`, `yesterday` or such a date itself;
    /// nil for anything else.
    public static func usageDay(_ text: String, now: Date = Date()) -> String? {
        switch text {
        case "today": return UsageTally.day(of: now)
        case "yesterday": return UsageTally.day(of: now.addingTimeInterval(-86_400))
        default:
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard text.utf8.count == 10, parts.map(\.count) == [4, 2, 2],
                let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
                year >= 2000, (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            return text
        }
    }
}
