import Foundation
import PostgresNIO

/// Reads a record from a PostgreSQL row by column name, through the record's `Decodable`
/// conformance: the same mapping GRDB reads SQLite rows with (id lists are JSON text in both).
/// Columns of a joined table are read as `prefix + name`.
struct PostgresRowDecoder: Decoder {
    let row: PostgresRandomAccessRow
    var prefix = ""
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns(row: row, prefix: prefix))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Self.onlyColumns }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Self.onlyColumns }

    static let onlyColumns = DecodingError.dataCorrupted(
        .init(codingPath: [], debugDescription: "a PostgreSQL row holds columns only"))

    private struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: PostgresRandomAccessRow
        let prefix: String
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { row.contains(prefix + key.stringValue) }

        private func cell(_ key: Key) throws -> PostgresCell {
            guard contains(key) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no such column"))
            }
            return row[prefix + key.stringValue]
        }

        func decodeNil(forKey key: Key) throws -> Bool { try cell(key).bytes == nil }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try cell(key).decode(String.self) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try cell(key).decode(Int.self) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try cell(key).decode(Double.self) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try cell(key).decode(Bool.self) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard type == [String].self else {
                throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "not a column type"))
            }
            return try PostgresDatabase.list(try cell(key).decode(String.self)) as! T
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        { throw PostgresRowDecoder.onlyColumns }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw PostgresRowDecoder.onlyColumns
        }
        func superDecoder() throws -> any Decoder { throw PostgresRowDecoder.onlyColumns }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw PostgresRowDecoder.onlyColumns }
    }
}

/// A record's columns and their values as PostgreSQL binds, through the record's `Encodable`
/// conformance (GRDB writes SQLite rows through the same one). A nil is a NULL, never left out.
enum PostgresRecordColumns {
    /// Appends `record`'s values to `binds`; returns its columns' names, in the same order.
    static func append(_ record: some Encodable, to binds: inout PostgresBindings) throws -> [String] {
        let collected = Collected(binds: binds)
        try record.encode(to: Collector(collected: collected))
        binds = collected.binds
        return collected.names
    }

    private final class Collected {
        var names: [String] = []
        var binds: PostgresBindings
        init(binds: PostgresBindings) { self.binds = binds }
    }

    private struct Collector: Encoder {
        let collected: Collected
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Columns(collected: collected))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("a record is columns only") }
        func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("a record is columns only") }
    }

    private struct Columns<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let collected: Collected
        var codingPath: [any CodingKey] { [] }

        private func add(_ key: Key, _ value: some PostgresThrowingDynamicTypeEncodable) throws {
            collected.names.append(key.stringValue)
            try collected.binds.append(value)
        }

        mutating func encodeNil(forKey key: Key) throws {
            collected.names.append(key.stringValue)
            collected.binds.appendNull()
        }
        mutating func encode(_ value: String, forKey key: Key) throws { try add(key, value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try add(key, value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try add(key, value) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { try add(key, value) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            guard let ids = value as? [String] else {
                throw EncodingError.invalidValue(value, .init(codingPath: [key], debugDescription: "not a column type"))
            }
            try add(key, try PostgresDatabase.text(ids))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        { fatalError("a record is columns only") }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            fatalError("a record is columns only")
        }
        mutating func superEncoder() -> any Encoder { fatalError("a record is columns only") }
        mutating func superEncoder(forKey key: Key) -> any Encoder { fatalError("a record is columns only") }
    }
}
