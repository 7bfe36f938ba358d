import PostgresNIO

/// The usage events' daily counts on PostgreSQL: its ``UsageDatabase`` part.
extension PostgresDatabase {
    func addUsage(_ counts: [UsageKey: Int]) async throws {
        guard !counts.isEmpty else { return }
        try await transaction { db in
            for (key, count) in counts {
                var bindings = PostgresBindings()
                for text in [key.day, key.event, key.screen, key.action, key.item] { bindings.append(text) }
                bindings.append(count)
                _ = try await db.query(
                    PostgresQuery(unsafeSQL: Self.addUsageSQL((1...6).map { "$\($0)" }), binds: bindings),
                    logger: Self.quiet)
            }
        }
    }

    func usage(on day: String) async throws -> [UsageKey: Int] {
        try await connection { db in
            var bindings = PostgresBindings()
            bindings.append(day)
            let rows = try await db.query(
                PostgresQuery(unsafeSQL: Self.usageSQL("$1"), binds: bindings), logger: Self.quiet
            )
            .decode((String, String, String, String, String, Int).self).array()
            return Dictionary(
                rows.map { (UsageKey(day: $0.0, event: $0.1, screen: $0.2, action: $0.3, item: $0.4), $0.5) },
                uniquingKeysWith: +)
        }
    }
}
