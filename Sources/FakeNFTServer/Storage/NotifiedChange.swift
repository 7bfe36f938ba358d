import Foundation

/// What a read model shows of one owner's committed change: the profile, the order and, when
/// the change moved it, the account's row in `/users`.
struct ChangedRows: Codable, Sendable, Equatable {
    var profile: ProfileRecord
    var order: OrderRecord
    /// Only when the change moved the row in `/users`.
    var user: UserRecord?

    /// Whose rows these are (a profile's id is its owner's).
    var owner: String { profile.id }
}

/// A committed change as another server's read model can take it without asking the database.
struct ArrivedChange: Sendable, Equatable {
    var generation: Int
    var rows: ChangedRows
}

/// One `NOTIFY fakenft_changes` payload: `"<generation>"` (a change every server reads back),
/// `"<generation> <writer>"`, or `"<generation> <writer> <rows as JSON>"` (``ChangedRows``), which
/// `fakenft_change` sends when the writer gave it rows small enough for a notification.
struct NotifiedChange: Sendable, Equatable {
    /// `Int.max` (read everything changed) when the payload does not start with one.
    var generation: Int
    var writer: String?
    var rows: ChangedRows?

    /// The largest rows a notification carries, in bytes of JSON: PostgreSQL refuses payloads
    /// of 8,000 bytes or more, and the generation and the writer's name come first.
    static let largestRows = 7_800

    /// Reads a payload; what it cannot read is left out (rows that do not decode are read back
    /// from the database, a generation that is not one means read everything).
    init(_ payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard let first = parts.first, let generation = Int(first), generation >= 0 else {
            self.init(generation: .max, writer: nil, rows: nil)
            return
        }
        let writer = parts.count > 1 ? String(parts[1]) : nil
        let rows = parts.count > 2 ? try? JSONDecoder().decode(ChangedRows.self, from: Data(parts[2].utf8)) : nil
        self.init(generation: generation, writer: writer, rows: rows)
    }

    init(generation: Int, writer: String?, rows: ChangedRows?) {
        self.generation = generation
        self.writer = writer
        self.rows = rows
    }

    /// `rows` as a notification carries them; nil when they are too large to.
    static func payload(_ rows: ChangedRows) -> String? {
        guard let json = try? JSONEncoder().encode(rows), json.count <= largestRows else { return nil }
        return String(decoding: json, as: UTF8.self)
    }
}

/// The changes notifications brought with their rows, by generation, until the read model takes
/// them: the last ``capacity`` (a ring: an older one is read back from the database).
struct ArrivedChanges: Sendable {
    static let capacity = 1_024
    private var slots = [ArrivedChange?](repeating: nil, count: capacity)

    mutating func keep(_ rows: ChangedRows, as generation: Int) {
        slots[Self.slot(generation)] = ArrivedChange(generation: generation, rows: rows)
    }

    /// The changes right after `generation`, in order, as far as they run without a gap.
    func run(after generation: Int) -> [ArrivedChange] {
        var run: [ArrivedChange] = []
        var next = generation &+ 1
        while run.count < Self.capacity, let change = slots[Self.slot(next)], change.generation == next {
            run.append(change)
            next &+= 1
        }
        return run
    }

    private static func slot(_ generation: Int) -> Int { Int(UInt(bitPattern: generation) % UInt(capacity)) }
}
