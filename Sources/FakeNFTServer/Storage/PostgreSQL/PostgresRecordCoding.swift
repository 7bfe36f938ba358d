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

/// A record's columns as PostgreSQL binds, as ``RecordEncoder`` writes them, with their names in
/// the same order.
struct PostgresColumnValues: RecordColumnValues {
    var names: [String] = []
    var binds = PostgresBindings()

    mutating func appendNull(_ column: String) {
        names.append(column)
        binds.appendNull()
    }
    mutating func append(_ value: String, _ column: String) { add(value, column) }
    mutating func append(_ value: Int, _ column: String) { add(value, column) }
    mutating func append(_ value: Double, _ column: String) { add(value, column) }
    mutating func append(_ value: Bool, _ column: String) { add(value, column) }

    private mutating func add(_ value: some PostgresNonThrowingEncodable, _ column: String) {
        names.append(column)
        binds.append(value)
    }
}
