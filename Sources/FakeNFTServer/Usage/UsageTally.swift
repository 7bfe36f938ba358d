import FakeNFTModels
import Foundation
import Synchronization

/// The usage events taken since the last write, counted in memory by day, event, screen, action
/// and item (``UsageKey``), until ``UsageWriter`` adds them to the database. An item is kept only
/// where the operator's summary reads it (an NFT opened, liked or put in the cart, a collection
/// or a user opened) and only when the shop has it, so the counts stay as few as the catalog.
final class UsageTally: Sendable {
    private let counts = Mutex<[UsageKey: Int]>([:])
    private let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    /// The most counts held; past it an event is counted without its item (memory stays bounded
    /// whatever the database does).
    static let maxKeys = 100_000

    /// Counts `events`, received at `now`; `isKnown` says whether the shop has an item of a screen.
    func add(
        _ events: [UsageEvent], at now: Date = Date(), isKnown: (String, UsageEvent.Screen) -> Bool
    ) {
        let day = Self.day(of: now)
        counts.withLock { counts in
            for event in events {
                var key = UsageKey(
                    day: day, event: event.event.rawValue, screen: event.screen.rawValue,
                    action: event.action?.rawValue ?? (event.stars.map(String.init) ?? ""))
                if let item = event.item, Self.keepsItem(event), isKnown(item, event.screen) { key.item = item }
                if counts[key] == nil, counts.count >= Self.maxKeys { key.item = "" }
                counts[key, default: 0] &+= 1
            }
        }
        arrived.yield()
    }

    /// Takes every count held (they are the writer's now).
    func take() -> [UsageKey: Int] {
        counts.withLock { counts in
            defer { counts = [:] }
            return counts
        }
    }

    /// Gives back counts a write could not store, to be written with the next.
    func giveBack(_ taken: [UsageKey: Int]) {
        counts.withLock { counts in
            for (key, count) in taken where counts[key] != nil || counts.count < Self.maxKeys {
                counts[key, default: 0] &+= count
            }
        }
    }

    /// Yields once something was counted since the last time it yielded; ends with ``finish()``.
    var counted: AsyncStream<Void> { arrivals }

    func finish() { arrived.finish() }

    /// Whether the summary reads `event`'s item: an NFT's, a collection's or a user's.
    private static func keepsItem(_ event: UsageEvent) -> Bool {
        switch (event.event, event.screen, event.action) {
        case (.open, .nft, _), (.open, .collection, _), (.open, .user, _): true
        case (.click, _, .like?), (.click, _, .cartAdd?): true
        default: false
        }
    }

    /// `date`'s day in UTC, `YYYY-MM-DD`.
    static func day(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
