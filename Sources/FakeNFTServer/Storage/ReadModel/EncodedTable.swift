import HashTreeCollections
import FakeNFTRequests
import Foundation
import NIOCore
import Synchronization

/// One kind of entity as JSON, each encoded once: found by id, or listed a page at a time in
/// any whitelisted order (worked out once, when the table is loaded).
struct EncodedTable: Sendable {
    private struct Ordering: Hashable {
        var field: String
        var descending: Bool
    }

    /// Encoded entities in storage (`seq`) order. Chunked (as are `names` and `positions`), so
    /// that a table updated for a change shares all but the changed rows' chunks with the one before.
    private var items: ChunkedArray<ByteBuffer>
    private var positions: TreeDictionary<String, Int>
    /// Positions in `items`, per sort field and direction (ties in storage order).
    private var orders: [Ordering: [Int]]
    /// Each entity's name folded for `name=` (case and diacritics ignored); empty for entities without one.
    private var names: ChunkedArray<String>
    /// Other names of sort fields (``SortFields/aliases``).
    private let aliases: [String: String]
    /// Unique to this table's content in this process: every table made or updated gets a new one
    /// (what ``PageCache`` keeps pages by).
    private(set) var revision = Self.nextRevision()
    private static let revisions = Atomic<Int>(0)
    private static func nextRevision() -> Int { revisions.add(1, ordering: .relaxed).newValue }

    /// Encodes `records` (in storage order) and works out the order of each field of `sorts`,
    /// on every core: a large table takes seconds.
    init<Record: Sendable, Model: Encodable>(
        _ records: [Record], sorts: ReadModel.SortFields<Record>, id: (Record) -> String,
        name: (@Sendable (Record) -> String)? = nil, model: @escaping @Sendable (Record) -> Model
    ) async throws {
        async let encoded = Self.encode(records, name: name, model: model)
        async let ordered = Self.orders(of: records, sorts)
        positions = TreeDictionary(firstOf: records.enumerated().map { (id($1), $0) })
        let (encodedItems, foldedNames) = try await encoded
        items = ChunkedArray(encodedItems)
        names = ChunkedArray(foldedNames)
        orders = await ordered
        aliases = sorts.aliases
    }

    /// Each record's JSON and folded name, in slices encoded at the same time.
    private static func encode<Record: Sendable, Model: Encodable>(
        _ records: [Record], name: (@Sendable (Record) -> String)?, model: @escaping @Sendable (Record) -> Model
    ) async throws -> (items: [ByteBuffer], names: [String]) {
        let sliceSize = max(10_000, records.count / ProcessInfo.processInfo.activeProcessorCount + 1)
        let starts = Array(stride(from: 0, to: records.count, by: sliceSize))
        let slices = try await withThrowingTaskGroup(of: (Int, [ByteBuffer], [String]).self) { group in
            for start in starts {
                let slice = records[start..<min(start + sliceSize, records.count)]
                group.addTask {
                    (
                        start, try slice.map { try JSONBody.encode(model($0)) },
                        name.map { slice.map($0) }?.map(searchKey) ?? []
                    )
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.0 < $1.0 }
        }
        return (slices.flatMap(\.1), slices.flatMap(\.2))
    }

    /// The positions of `records` in each order of `sorts`, a field at a time on each core. A
    /// descending order is the ascending one reversed, each run of equal keys put back in storage order.
    private static func orders<Record: Sendable>(of records: [Record], _ sorts: ReadModel.SortFields<Record>) async
        -> [Ordering:
        [Int]]
    {
        await withTaskGroup(of: [Ordering: [Int]].self) { group in
            for (field, key) in sorts.keys {
                group.addTask {
                    let keys = records.map(key)
                    let ascending = keys.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
                    var descending = Array(ascending.reversed())
                    var runStart = 0
                    for end in descending.indices.dropFirst() where keys[descending[end]] < keys[descending[runStart]] {
                        descending[runStart..<end].reverse()
                        runStart = end
                    }
                    descending[runStart...].reverse()
                    return [
                        Ordering(field: field, descending: false): ascending,
                        Ordering(field: field, descending: true): descending,
                    ]
                }
            }
            return await group.reduce(into: [:]) { $0.merge($1) { first, _ in first } }
        }
    }

    /// The entity with `id`, as JSON.
    func item(id: String) -> ByteBuffer? { positions[id].map { items[$0] } }

    /// Where the entity with `id` is in storage order.
    func position(id: String) -> Int? { positions[id] }

    /// The table made from `records` (storage order), which are the table's `before` with the
    /// rows at `changed` positions replaced or, past `before`'s end, added: those rows are
    /// encoded again, and each order whose key moved for one of them takes them out (found by
    /// their keys before) and puts them back in their place (the same places a table made anew
    /// gives them), instead of sorting and encoding everything again.
    func updating<Record>(
        _ changed: [Int], of records: ChunkedArray<Record>, before: ChunkedArray<Record>,
        sorts: ReadModel.SortFields<Record>,
        id: (Record) -> String, name: ((Record) -> String)? = nil, model: (Record) -> some Encodable
    ) throws -> EncodedTable {
        var table = self
        table.revision = Self.nextRevision()
        let changed = changed.sorted()
        for index in changed {
            let encoded = try JSONBody.encode(model(records[index]))
            let folded = name.map { Self.searchKey($0(records[index])) }
            if index < table.items.count {
                table.items[index] = encoded
                if let folded { table.names[index] = folded }
            } else {
                table.items.append(encoded)
                if let folded { table.names.append(folded) }
                table.positions[id(records[index])] = index
            }
        }
        for (field, key) in sorts.keys {
            let moved = changed.filter { $0 >= before.count || key(before[$0]) != key(records[$0]) }
            guard !moved.isEmpty else { continue }
            for descending in [false, true] {
                let ordering = Ordering(field: field, descending: descending)
                /// Where the row at `index` goes in `order`, its rows' keys taken from `rows`
                /// (ties in storage order).
                func place(of index: Int, in order: [Int], keys rows: ChunkedArray<Record>) -> Int {
                    let sought = key(rows[index])
                    var low = 0, high = order.count
                    while low < high {
                        let middle = (low + high) / 2
                        let other = key(rows[order[middle]])
                        let precedes = descending ? sought < other : other < sought
                        if precedes || (!(other < sought) && !(sought < other) && order[middle] < index) {
                            low = middle + 1
                        } else {
                            high = middle
                        }
                    }
                    return low
                }
                var order = table.orders[ordering] ?? []
                for index in moved where index < before.count {
                    order.remove(at: place(of: index, in: order, keys: before))
                }
                for index in moved { order.insert(index, at: place(of: index, in: order, keys: records)) }
                table.orders[ordering] = order
            }
        }
        return table
    }

    /// A page as a JSON array. An unknown sort field sorts by storage order; `order=desc`
    /// without a field reverses it; `name=` keeps the entities whose name contains it.
    func list(_ query: ListQuery) -> ByteBuffer {
        let sorted = query.sortField.flatMap {
            orders[Ordering(field: aliases[$0] ?? $0, descending: query.descending)]
        }
        let reversed = query.sortField == nil && query.descending
        func index(at position: Int) -> Int {
            sorted.map { $0[position] } ?? (reversed ? items.count - 1 - position : position)
        }
        guard let name = query.name, !names.isEmpty else { return page(query.window(count: items.count), index(at:)) }
        let key = Self.searchKey(name)
        let matching = (0..<items.count).map(index(at:)).filter { names[$0].contains(key) }
        return page(query.window(count: matching.count)) { matching[$0] }
    }

    /// The entities at `window`'s positions (`index` turns a position into an entity) as a JSON array.
    private func page(_ window: Range<Int>, _ index: (Int) -> Int) -> ByteBuffer {
        var body = ByteBuffer()
        body.reserveCapacity(2 + window.count * ((items.first?.readableBytes ?? 0) + 1))
        body.writeStaticString("[")
        for position in window {
            if position != window.lowerBound { body.writeStaticString(",") }
            var item = items[index(position)]
            body.writeBuffer(&item)
        }
        body.writeStaticString("]")
        return body
    }

    /// `text` with case and diacritics folded away.
    static func searchKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
