import FakeNFTRequests
import Foundation
import GRDB
import NIOCore

/// One kind of entity as JSON, each encoded once: found by id, or listed a page at a time in
/// any whitelisted order (worked out once, by SQLite, when the table is loaded).
struct EncodedTable: Sendable {
    private struct Ordering: Hashable { var field: String; var descending: Bool }

    /// Encoded entities in storage (`seq`) order.
    private let items: [ByteBuffer]
    private let positions: [String: Int]
    /// Positions in `items`, per sort field and direction (ties in storage order).
    private let orders: [Ordering: [Int]]

    /// Loads `records` (in `seq` order) and the order of each field of `sorts`.
    init<Record: FetchableRecord & TableRecord, Model: Encodable>(
        _ db: Database, _ type: Record.Type, seq: Column, sorts: [String: SQLExpression],
        id: (Record) -> String, model: (Record) -> Model
    ) throws {
        let records = try Record.order(seq).fetchAll(db)
        let seqs = try Int.fetchAll(db, Record.select(seq).order(seq))
        let positionOfSeq = Dictionary(seqs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        items = try records.map { try JSONBody.encode(model($0)) }
        positions = Dictionary(records.enumerated().map { (id($1), $0) }, uniquingKeysWith: { first, _ in first })
        var orders: [Ordering: [Int]] = [:]
        for (field, term) in sorts {
            for descending in [false, true] {
                let ordering = descending ? term.desc : term.asc
                let sorted = try Int.fetchAll(db, Record.select(seq).order(ordering, seq.asc))
                orders[Ordering(field: field, descending: descending)] = sorted.compactMap { positionOfSeq[$0] }
            }
        }
        self.orders = orders
    }

    /// The entity with `id`, as JSON.
    func item(id: String) -> ByteBuffer? { positions[id].map { items[$0] } }

    /// A page as a JSON array. An unknown sort field sorts by storage order; `order=desc`
    /// without a field reverses it.
    func list(_ query: ListQuery) -> ByteBuffer {
        let window = query.window(count: items.count)
        var body = ByteBuffer()
        body.reserveCapacity(2 + window.count * ((items.first?.readableBytes ?? 0) + 1))
        body.writeStaticString("[")
        let sorted = query.sortField.flatMap { orders[Ordering(field: $0, descending: query.descending)] }
        let reversed = query.sortField == nil && query.descending
        for position in window {
            if position != window.lowerBound { body.writeStaticString(",") }
            let index = sorted.map { $0[position] } ?? (reversed ? items.count - 1 - position : position)
            var item = items[index]
            body.writeBuffer(&item)
        }
        body.writeStaticString("]")
        return body
    }
}

/// JSON as the server writes it: keys sorted, slashes unescaped.
enum JSONBody {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    static func encode(_ value: some Encodable) throws -> ByteBuffer {
        ByteBuffer(bytes: try encoder.encode(value))
    }
}
