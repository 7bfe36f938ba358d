/// One change as `fakenft_apply` reads it (migration `v16-accounts-as-changes`,
/// ``PostgresFunctions``): the owner, the versions its rows were read at (none for a new owner's:
/// then its address, which must have no account, and the place in `/users` its row follows), the
/// tokens of its sign-ins when it changes them,
/// the rows it deletes (by key), each row that changed, whole, as a JSON object keyed by its
/// columns (``RecordJSON``) with its table (a row left out is not written), the rows it adds (a new
/// owner's, a sign-in, an SSH key, a paid order) and whether the owner's paid orders go. `rows` is
/// what its notification carries (``NotifiedChange/payload(_:)``; nil when too large).
struct PostgresChange: Encodable, Sendable {
    /// A row to write: its table and its columns.
    struct Row: Encodable, Sendable {
        var table: String
        var row: RecordJSON

        init<Record: StoredRecord>(_ record: Record) throws {
            table = Record.databaseTableName
            row = try RecordJSON(record)
        }
    }

    /// A row to delete: its table and its key.
    struct Key: Encodable, Sendable {
        var table: String
        var key: String
    }

    var owner: String
    var expectedProfile: Int?
    var expectedOrder: Int?
    var expectedSessions: [String]?
    var emailKey: String?
    /// A new owner's: the place in storage order of `/users` its row follows (the last).
    var lastUserSeq: Int?
    var drop: [Key] = []
    var put: [Row] = []
    var add: [Row] = []
    /// Whether the owner's paid orders are deleted (before `add`).
    var forgetPaid: Bool
    /// Whether the owner's row in `/users`, or its sign-ins, changed (the change log's `users`, `sessions`).
    var users: Bool
    var sessions: Bool
    var rows: String?

    /// `made`, its notification carrying what a read model shows of it.
    init(_ made: MadeChange) throws {
        let rows = made.rows
        owner = made.owner
        users = rows.user != nil && made.users
        sessions = made.sessions
        if let before = made.before {
            expectedProfile = before.profile.version
            expectedOrder = before.order.version
            expectedSessions = sessions ? before.sessions.map(\.tokenHash) : nil
            put = try [
                rows.profile == before.profile ? nil : Row(rows.profile),
                rows.order == before.order ? nil : Row(rows.order),
                rows.account == before.account ? nil : try rows.account.map(Row.init),
                users ? try rows.user.map(Row.init) : nil,
            ].compactMap { $0 }
        } else {
            emailKey = rows.account?.emailKey
            lastUserSeq = rows.user.map { $0.seq - 1 }
            add = try [
                try rows.account.map(Row.init), Row(rows.profile), Row(rows.order), try rows.user.map(Row.init),
            ].compactMap { $0 }
        }
        let signIns = SessionChanges(from: made.before?.sessions ?? [], to: rows.sessions)
        drop = signIns.ended.map { Key(table: SessionRecord.databaseTableName, key: $0) }
        put += try signIns.used.map(Row.init)
        add += try signIns.added.map(Row.init)
        if let key = rows.linksKey {
            drop.append(Key(table: SSHKeyRecord.databaseTableName, key: key.fingerprint))
            add.append(try Row(key))
        }
        if let key = rows.unlinksKey { drop.append(Key(table: SSHKeyRecord.databaseTableName, key: key)) }
        add += try rows.paid.map { [try Row($0)] } ?? []
        forgetPaid = rows.forgetsPaid
        self.rows = NotifiedChange.payload(made.shown)
    }
}

/// A record's columns as one JSON object keyed by their names, as ``RecordEncoder`` writes them
/// (id lists as their text): a row of its table as PostgreSQL's `jsonb_populate_record` reads it.
struct RecordJSON: Encodable, Sendable, RecordColumnValues {
    private enum Value: Sendable {
        case null
        case text(String)
        case integer(Int)
        case double(Double)
        case boolean(Bool)
    }

    private var columns: [(name: String, value: Value)] = []

    init(_ record: some Encodable) throws { try RecordEncoder.write(record, to: &self) }

    mutating func appendNull(_ column: String) { columns.append((column, .null)) }
    mutating func append(_ value: String, _ column: String) { columns.append((column, .text(value))) }
    mutating func append(_ value: Int, _ column: String) { columns.append((column, .integer(value))) }
    mutating func append(_ value: Double, _ column: String) { columns.append((column, .double(value))) }
    mutating func append(_ value: Bool, _ column: String) { columns.append((column, .boolean(value))) }

    private struct ColumnName: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ColumnName.self)
        for (name, value) in columns {
            let key = ColumnName(stringValue: name)
            switch value {
            case .null: try container.encodeNil(forKey: key)
            case .text(let text): try container.encode(text, forKey: key)
            case .integer(let number): try container.encode(number, forKey: key)
            case .double(let number): try container.encode(number, forKey: key)
            case .boolean(let flag): try container.encode(flag, forKey: key)
            }
        }
    }
}
