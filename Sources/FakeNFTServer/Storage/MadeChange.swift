/// A change made on an owner's rows, to write: the rows it was made on (a database writes it only
/// while the owner's rows are still those), the rows it leaves, what its rules returned, and what
/// a read model shows of it once committed.
struct MadeChange: Sendable {
    var before: OwnerRows
    var rows: OwnerRows
    var outcome: any Sendable
    var shown: ChangedRows

    /// `rules` run on `known`.
    init(on known: OwnerRows, _ rules: (inout OwnerRows) throws -> any Sendable) throws {
        before = known
        (before.paid, before.forgetsPaid) = (nil, false)  // done by the change that did them, never again
        rows = before
        outcome = try rules(&rows)
        shown = try ChangedRows(rows, userMoved: rows.user != before.user)
    }

    var owner: String { rows.profile.id }
    /// Whether the owner's row in `/users` moved (the change log's `users`).
    var users: Bool { rows.user != before.user }

    /// Its scope once committed as `generation`.
    func scope(_ generation: Int) -> ChangeScope {
        ChangeScope(generation: generation, owner: owner, users: users, sessions: false)
    }
}
