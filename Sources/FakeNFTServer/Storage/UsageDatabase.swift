/// One day's count of one kind of usage event (``UsageEvent``): which day (UTC), event, screen,
/// action and item; no person, no address.
struct UsageKey: Sendable, Hashable {
    /// `YYYY-MM-DD`, in UTC.
    var day: String
    var event: String
    var screen: String
    /// "" for an event without one.
    var action: String = ""
    /// "" for an event without one.
    var item: String = ""
}

/// Where a database keeps the usage events' daily counts, beside the shop (``StoreDatabase``).
/// Counts are added, never set, so that several servers on one database add up.
protocol UsageDatabase: Sendable {
    /// Adds `counts` to the days' counts, in one transaction.
    func addUsage(_ counts: [UsageKey: Int]) async throws
    /// Every count of `day` (`YYYY-MM-DD`).
    func usage(on day: String) async throws -> [UsageKey: Int]
}

extension UsageDatabase {
    /// The statement that adds one count, alike in both databases (their parameters apart).
    static func addUsageSQL(_ parameters: [String]) -> String {
        """
        INSERT INTO "usage_count" ("day", "event", "screen", "action", "item", "count") \
        VALUES (\(parameters.joined(separator: ", "))) \
        ON CONFLICT ("day", "event", "screen", "action", "item") \
        DO UPDATE SET "count" = "usage_count"."count" + EXCLUDED."count"
        """
    }

    /// The statement that reads a day's counts.
    static func usageSQL(_ parameter: String) -> String {
        #"SELECT "day", "event", "screen", "action", "item", "count" FROM "usage_count" WHERE "day" = \#(parameter)"#
    }
}
