import GRDB

/// A row's columns by name, as ``RecordDecoder`` reads them: a PostgreSQL row or an SQLite one.
protocol RecordColumns {
    func contains(_ column: String) -> Bool
    func isNull(_ column: String) throws -> Bool
    func string(_ column: String) throws -> String
    func int(_ column: String) throws -> Int
    func double(_ column: String) throws -> Double
    func bool(_ column: String) throws -> Bool
}

/// Reads a record from a row by column name, through the record's `Decodable` conformance, the
/// same way from both stores: id lists are JSON text read by ``IDListText`` (GRDB's own
/// decoding made a `JSONDecoder` for each list, a fifth of a large catalog's start). Columns of
/// a joined table are read as `prefix + name`.
struct RecordDecoder<Row: RecordColumns>: Decoder {
    let row: Row
    var prefix = ""
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns(row: row, prefix: prefix))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw onlyColumns }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw onlyColumns }

    private struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: Row
        let prefix: String
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { row.contains(prefix + key.stringValue) }

        /// The key's column, which the row must have.
        private func column(_ key: Key) throws -> String {
            guard contains(key) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no such column"))
            }
            return prefix + key.stringValue
        }

        func decodeNil(forKey key: Key) throws -> Bool { try row.isNull(try column(key)) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try row.string(try column(key)) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try row.int(try column(key)) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try row.double(try column(key)) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try row.bool(try column(key)) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard type == [String].self else {
                throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "not a column type"))
            }
            return try IDListText.list(try row.string(try column(key))) as! T
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        { throw onlyColumns }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw onlyColumns }
        func superDecoder() throws -> any Decoder { throw onlyColumns }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw onlyColumns }
    }
}

private let onlyColumns = DecodingError.dataCorrupted(
    .init(codingPath: [], debugDescription: "a row holds columns only"))

/// An SQLite row's columns, as ``RecordDecoder`` reads them.
extension GRDB.Row: RecordColumns {
    func contains(_ column: String) -> Bool { hasColumn(column) }
    func isNull(_ column: String) throws -> Bool { try decode(DatabaseValue.self, forColumn: column).isNull }
    func string(_ column: String) throws -> String { try decode(String.self, forColumn: column) }
    func int(_ column: String) throws -> Int { try decode(Int.self, forColumn: column) }
    func double(_ column: String) throws -> Double { try decode(Double.self, forColumn: column) }
    func bool(_ column: String) throws -> Bool { try decode(Bool.self, forColumn: column) }
}
