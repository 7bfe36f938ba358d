import FakeNFTTesting
import Foundation
import Testing

@testable import FakeNFTServer

/// The one schema declaration is what each database has: every table it declares, with its
/// columns in order and their nullability, in a fresh SQLite file and (run with
/// FAKENFT_TEST_STORE=postgres) a fresh PostgreSQL database.
@Suite struct StorageSchemaTests {
    /// Each declared table's columns after every migration, as "name" or "name?" (nullable).
    private static var declared: [String: [String]] {
        var tables: [String: [String]] = [:]
        func describe(_ column: StorageSchema.Column) -> String { column.name + (column.notNull ? "" : "?") }
        for (_, steps) in StorageSchema.migrations {
            for step in steps {
                switch step {
                case .create(let table, let columns): tables[table] = columns.map(describe)
                case .add(let column, let table): tables[table, default: []].append(describe(column))
                case .index, .statements: break
                }
            }
        }
        return tables
    }

    @Test func everyDeclaredColumnIsInTheDatabase() async throws {
        try await TestServer.with { server async throws in
            for (table, columns) in Self.declared {
                let sql =
                    TestStore.isPostgres
                    ? """
                    SELECT column_name, CASE WHEN is_nullable = 'NO' THEN 1 ELSE 0 END FROM information_schema.columns
                    WHERE table_name = '\(table)' ORDER BY ordinal_position
                    """
                    : #"SELECT name, "notnull" FROM pragma_table_info('\#(table)')"#
                let found = try await server.databaseRows(sql).map { $0[0] + ($0[1] == "1" ? "" : "?") }
                #expect(found == columns, "\(table)")
            }
        }
    }

    @Test func eachDatabaseGetsItsOwnWords() {
        let create = StorageSchema.Step.create(
            table: "user",
            columns: [
                .init(name: "seq", kind: .integer, primaryKey: true), .init(name: "price", kind: .double),
                .init(name: "userID", kind: .text, notNull: false, references: ("account", "userID")),
            ])
        #expect(
            StorageSchema.sql(create, .sqlite) == [
                #"CREATE TABLE "user" ("seq" INTEGER PRIMARY KEY NOT NULL, "price" DOUBLE NOT NULL, "#
                    + #""userID" TEXT REFERENCES "account" ("userID") ON DELETE CASCADE)"#
            ])
        #expect(
            StorageSchema.sql(create, .postgres) == [
                #"CREATE TABLE "user" ("seq" BIGINT PRIMARY KEY NOT NULL, "price" DOUBLE PRECISION NOT NULL, "#
                    + #""userID" TEXT REFERENCES "account" ("userID") ON DELETE CASCADE)"#
            ])
        let postgresOnly = [
            "v7-change-notifies-its-rows", "v8-changes-in-batches", "v9-changes-as-rows", "v16-accounts-as-changes",
        ]
        #expect(
            StorageSchema.statements(.sqlite).map(\.name)
                == StorageSchema.migrations.map(\.name).filter { !postgresOnly.contains($0) })
        #expect(StorageSchema.statements(.postgres).map(\.name) == StorageSchema.migrations.map(\.name))
    }
}
