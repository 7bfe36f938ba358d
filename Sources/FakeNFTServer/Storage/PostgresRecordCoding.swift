import Foundation
import PostgresNIO

/// A PostgreSQL row's columns, as ``RecordDecoder`` reads them.
extension PostgresRandomAccessRow: RecordColumns {
    func isNull(_ column: String) -> Bool { self[column].bytes == nil }
    func string(_ column: String) throws -> String { try self[column].decode(String.self) }
    func int(_ column: String) throws -> Int { try self[column].decode(Int.self) }
    func double(_ column: String) throws -> Double { try self[column].decode(Double.self) }
    func bool(_ column: String) throws -> Bool { try self[column].decode(Bool.self) }
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
            try add(key, try IDListText.text(ids))
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
