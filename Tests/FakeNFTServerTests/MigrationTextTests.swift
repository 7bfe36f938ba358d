import Foundation
import Testing
@testable import FakeNFTServer

/// A migration, once shipped, never changes: a database that ran it never runs it again, so an
/// edit would reach new databases only and the two would differ unseen. The text of every shipped
/// migration, in both databases' SQL, is kept in `Tests/Fixtures/shipped-migrations.sql`; a
/// migration added since is written there with `SNAPSHOT_RECORD=1` (appended: the ones there
/// are never rewritten).
struct MigrationTextTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/shipped-migrations.sql").standardized

    /// Each migration's text in each dialect, keyed `-- <name> (<dialect>)`, in order.
    static func current() -> [(key: String, text: String)] {
        [(StorageSchema.Dialect.sqlite, "sqlite"), (.postgres, "postgres")].flatMap { dialect, word in
            StorageSchema.statements(dialect).map { migration in
                ("-- \(migration.name) (\(word))", migration.statements.map { $0 + ";\n" }.joined())
            }
        }
    }

    /// The texts kept in the file, by key: each block its key's line, then its text; a blank
    /// line between two blocks.
    static func shipped(_ text: String) -> [String: String] {
        var texts: [String: String] = [:]
        for block in ("\n" + text).components(separatedBy: "\n-- v").dropFirst() {
            guard let newline = block.firstIndex(of: "\n") else { continue }
            texts["-- v" + block[..<newline]] = String(block[block.index(after: newline)...])
        }
        return texts
    }

    /// `texts` as the file keeps them.
    static func kept(_ texts: [(key: String, text: String)]) -> String {
        texts.map { "\($0.key)\n\($0.text)" }.joined(separator: "\n")
    }

    @Test func noShippedMigrationChanges() throws {
        let text = (try? String(contentsOf: Self.file, encoding: .utf8)) ?? ""
        let shipped = Self.shipped(text), current = Self.current()
        for (key, was) in shipped {
            let now = current.first { $0.key == key }?.text
            #expect(now != nil, "\(key) shipped and is gone")
            #expect(now == nil || now == was, "\(key) shipped as it is in \(Self.file.lastPathComponent); it changed")
        }
        let added = current.filter { shipped[$0.key] == nil }
        if ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1", !added.isEmpty {
            let appended = (text.isEmpty ? "" : "\n") + Self.kept(added)
            try (text + appended).write(to: Self.file, atomically: true, encoding: .utf8)
        } else {
            #expect(added.isEmpty, "not yet in the file (SNAPSHOT_RECORD=1 adds them): \(added.map(\.key))")
        }
    }

    /// The file's reading is right: a changed statement is seen.
    @Test func aChangedStatementIsSeen() {
        let kept = Self.kept(Self.current())
        let shipped = Self.shipped(kept)
        #expect(Dictionary(uniqueKeysWithValues: Self.current().map { ($0.key, $0.text) }) == shipped)
        let edited = Self.shipped(kept.replacingOccurrences(of: "change_log", with: "changes_log"))
        #expect(edited != shipped)
    }
}
