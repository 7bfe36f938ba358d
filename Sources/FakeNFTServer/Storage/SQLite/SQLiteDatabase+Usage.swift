import GRDB

/// The usage events' daily counts in SQLite: its ``UsageDatabase`` part.
extension SQLiteDatabase {
    func addUsage(_ counts: [UsageKey: Int]) async throws {
        guard !counts.isEmpty else { return }
        _ = try await write { db in
            let statement = try db.makeStatement(sql: Self.addUsageSQL(Array(repeating: "?", count: 6)))
            for (key, count) in counts {
                try statement.execute(arguments: [key.day, key.event, key.screen, key.action, key.item, count])
            }
            return 0
        }
    }

    func usage(on day: String) async throws -> [UsageKey: Int] {
        try await read { db in
            var counts: [UsageKey: Int] = [:]
            for row in try Row.fetchAll(db, sql: Self.usageSQL("?"), arguments: [day]) {
                counts[UsageKey(day: row[0], event: row[1], screen: row[2], action: row[3], item: row[4])] = row[5]
            }
            return counts
        }
    }
}
