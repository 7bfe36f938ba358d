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

    /// What a read model shows of an owner's `rows`: the row in `/users` only when `userMoved`.
    init(_ rows: OwnerRows, userMoved: Bool) {
        self.init(profile: rows.profile, order: rows.order, user: userMoved ? rows.user : nil)
    }

    init(profile: ProfileRecord, order: OrderRecord, user: UserRecord?) {
        self.profile = profile
        self.order = order
        self.user = user
    }
}

/// A committed change with the rows a read model takes in.
struct ArrivedChange: Sendable, Equatable {
    var generation: Int
    var rows: ChangedRows
    /// Whether another server wrote it (the rows this server knows of that owner are old).
    var byOtherServer: Bool
}

/// One `NOTIFY fakenft_changes` payload: `"<generation>"` (a change every server reads back),
/// `"<generation> <writer>"`, or `"<generation> <writer> <rows as JSON>"` (``ChangedRows``), which
/// `fakenft_change` sends when the writer gave it rows small enough for a notification. The rows
/// are decoded only when a read model needs them (``ArrivedChanges``).
struct NotifiedChange: Sendable, Equatable {
    /// `Int.max` (read everything changed) when the payload does not start with one.
    var generation: Int
    var writer: String?
    var rowsJSON: Substring?

    /// The largest rows a notification carries, in bytes of JSON: PostgreSQL refuses payloads
    /// of 8,000 bytes or more, and the generation and the writer's name come first.
    static let largestRows = 7_800

    /// Reads a payload; what it cannot read is left out (a generation that is not one means
    /// read everything).
    init(_ payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard let first = parts.first, let generation = Int(first), generation >= 0 else {
            self.init(generation: .max, writer: nil, rowsJSON: nil)
            return
        }
        self.init(
            generation: generation, writer: parts.count > 1 ? String(parts[1]) : nil,
            rowsJSON: parts.count > 2 ? parts[2] : nil)
    }

    init(generation: Int, writer: String?, rowsJSON: Substring?) {
        self.generation = generation
        self.writer = writer
        self.rowsJSON = rowsJSON
    }

    /// `rows` as a notification carries them; nil when they are too large to.
    static func payload(_ rows: ChangedRows) -> String? {
        guard let json = try? JSONEncoder().encode(rows), json.count <= largestRows else { return nil }
        return String(decoding: json, as: UTF8.self)
    }

    /// The rows a payload carried; nil when they do not decode (they are read back from the database).
    static func rows(_ json: Substring) -> ChangedRows? {
        try? JSONDecoder().decode(ChangedRows.self, from: Data(json.utf8))
    }
}

/// Changes with their rows, by generation, until the read model takes them: this server's own as
/// they commit, and every change whose notification carried its rows (decoded only when taken
/// in: a server's own arrive both ways, and the rows it kept at the commit come first). The
/// last ``capacity`` are kept (a ring: an older one is read back from the database).
struct ArrivedChanges: Sendable {
    static let capacity = 1_024
    private enum Rows {
        case decoded(ChangedRows)
        case encoded(Substring)
    }
    private struct Slot {
        var generation: Int
        var rows: Rows
        var byOtherServer: Bool
    }
    private var slots = [Slot?](repeating: nil, count: capacity)

    /// This server's own change, as committed.
    mutating func keep(_ rows: ChangedRows, as generation: Int) {
        slots[Self.slot(generation)] = Slot(generation: generation, rows: .decoded(rows), byOtherServer: false)
    }

    /// A change as its notification carried it; nothing for one kept as committed here already.
    mutating func keep(_ change: NotifiedChange, byOtherServer: Bool) {
        guard let json = change.rowsJSON, change.generation != .max else { return }
        let index = Self.slot(change.generation)
        if !byOtherServer, slots[index]?.generation == change.generation { return }
        slots[index] = Slot(generation: change.generation, rows: .encoded(json), byOtherServer: byOtherServer)
    }

    /// The changes right after `generation`, in order, as far as they run without a gap (rows
    /// that do not decode are one).
    mutating func run(after generation: Int) -> [ArrivedChange] {
        var run: [ArrivedChange] = []
        var next = generation &+ 1
        while run.count < Self.capacity, var slot = slots[Self.slot(next)], slot.generation == next {
            if case .encoded(let json) = slot.rows {
                guard let rows = NotifiedChange.rows(json) else { break }
                slot.rows = .decoded(rows)
                slots[Self.slot(next)] = slot
            }
            guard case .decoded(let rows) = slot.rows else { break }
            run.append(ArrivedChange(generation: next, rows: rows, byOtherServer: slot.byOtherServer))
            next &+= 1
        }
        return run
    }

    private static func slot(_ generation: Int) -> Int { Int(UInt(bitPattern: generation) % UInt(capacity)) }
}
