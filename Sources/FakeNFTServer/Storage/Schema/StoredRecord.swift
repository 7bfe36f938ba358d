import GRDB

/// A table's record: written to and read from either store's rows by ``RecordEncoder`` and
/// ``RecordDecoder``.
protocol StoredRecord: Codable, FetchableRecord, PersistableRecord {}

extension StoredRecord {
    init(row: GRDB.Row) throws { try self.init(from: RecordDecoder(row: row)) }

    func encode(to container: inout PersistenceContainer) throws { try RecordEncoder.write(self, to: &container) }
}
