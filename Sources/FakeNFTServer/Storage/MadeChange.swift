/// A change made on an owner's rows, to write: the rows it was made on (a database writes it only
/// while the owner's rows are still those; none for a new owner's, written only while the owner
/// has none), the rows it leaves, what its rules returned, and what a read model shows of it once
/// committed.
struct MadeChange: Sendable {
    var before: OwnerRows?
    var rows: OwnerRows
    var outcome: any Sendable
    var shown: ChangedRows

    /// `rules` run on `known`.
    init(on known: OwnerRows, _ rules: (inout OwnerRows) throws -> any Sendable) throws {
        var before = known
        // done by the change that did them, never again
        (before.paid, before.forgetsPaid, before.linksKey, before.unlinksKey) = (nil, false, nil, nil)
        rows = before
        outcome = try rules(&rows)
        rows.sessions.sort { $0.tokenHash < $1.tokenHash }  // as read
        self.before = before
        shown = try ChangedRows(
            rows, userMoved: rows.user != before.user, sessionsMoved: rows.sessions != before.sessions)
    }

    /// A new owner's `rows` (a sign-up: an account, its profile, order, row in `/users`, first
    /// sign-in and SSH key).
    init(new rows: OwnerRows) throws {
        before = nil
        self.rows = rows
        outcome = ()
        shown = try ChangedRows(rows, userMoved: true, sessionsMoved: true)
    }

    var owner: String { rows.profile.id }
    /// Whether the owner's row in `/users` moved (the change log's `users`).
    var users: Bool { rows.user != before?.user }
    /// Whether the owner's sign-ins moved (the change log's `sessions`).
    var sessions: Bool { rows.sessions != before?.sessions }

    /// Its scope once committed as `generation`.
    func scope(_ generation: Int) -> ChangeScope {
        ChangeScope(generation: generation, owner: owner, users: users, sessions: sessions)
    }
}
