import GRDB

/// Where ``RecordEncoder`` writes a record's columns, in order: PostgreSQL binds or an SQLite row.
protocol RecordColumnValues {
    mutating func appendNull(_ column: String)
    mutating func append(_ value: String, _ column: String)
    mutating func append(_ value: Int, _ column: String)
    mutating func append(_ value: Double, _ column: String)
    mutating func append(_ value: Bool, _ column: String)
}

/// Writes a record's columns through its `Encodable` conformance, the same way for both stores
/// (``RecordDecoder`` reads them back): id lists as ``IDListText`` writes them (GRDB's own
/// encoding made a `JSONEncoder` for each list and escaped every slash); a nil is a NULL, never
/// left out.
enum RecordEncoder {
    static func write<Values: RecordColumnValues>(_ record: some Encodable, to values: inout Values) throws {
        let written = Written(values: values)
        try record.encode(to: ColumnsEncoder(written: written))
        values = written.values
    }

    private final class Written<Values: RecordColumnValues> {
        var values: Values
        init(values: Values) { self.values = values }
    }

    private struct ColumnsEncoder<Values: RecordColumnValues>: Encoder {
        let written: Written<Values>
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Columns(written: written))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("a record is columns only") }
        func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("a record is columns only") }
    }

    private struct Columns<Key: CodingKey, Values: RecordColumnValues>: KeyedEncodingContainerProtocol {
        let written: Written<Values>
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { written.values.appendNull(key.stringValue) }
        mutating func encode(_ value: String, forKey key: Key) throws { written.values.append(value, key.stringValue) }
        mutating func encode(_ value: Int, forKey key: Key) throws { written.values.append(value, key.stringValue) }
        mutating func encode(_ value: Double, forKey key: Key) throws { written.values.append(value, key.stringValue) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { written.values.append(value, key.stringValue) }
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
            written.values.append(try IDListText.text(ids), key.stringValue)
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

/// An SQLite row's columns, as ``RecordEncoder`` writes them.
extension PersistenceContainer: RecordColumnValues {
    mutating func appendNull(_ column: String) { self[column] = nil }
    mutating func append(_ value: String, _ column: String) { self[column] = value }
    mutating func append(_ value: Int, _ column: String) { self[column] = value }
    mutating func append(_ value: Double, _ column: String) { self[column] = value }
    mutating func append(_ value: Bool, _ column: String) { self[column] = value }
}
