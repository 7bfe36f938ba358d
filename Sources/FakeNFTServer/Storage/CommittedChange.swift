/// What a read model shows of one owner's committed change, as it serves it: the profile's and
/// the order's JSON (encoded once, by the server that wrote them) and, when the change moved them,
/// the account's row in `/users` and its sign-ins.
struct ChangedRows: Sendable, Equatable {
    var owner: String
    var profile: ReadModel.Versioned
    var order: ReadModel.Versioned
    /// Only when the change moved the row in `/users`.
    var user: UserRecord?
    /// The account's sign-ins, only when the change moved them.
    var sessions: [SessionRecord]?
}

extension ChangedRows {
    /// What a read model shows of an owner's `rows`: the profile and the order encoded as they are
    /// served, the row in `/users` only when `userMoved`, the sign-ins only when `sessionsMoved`.
    init(_ rows: OwnerRows, userMoved: Bool, sessionsMoved: Bool) throws {
        self.init(
            owner: rows.profile.id, profile: try ReadModel.versioned(rows.profile),
            order: try ReadModel.versioned(rows.order), user: userMoved ? rows.user : nil,
            sessions: sessionsMoved ? rows.sessions : nil)
    }
}

/// A committed change with the rows a read model takes in: storage's one record of a change,
/// whichever database wrote it and however it arrived (as this server committed it, or with
/// another server's notification).
struct CommittedChange: Sendable, Equatable {
    var generation: Int
    var rows: ChangedRows
    /// Whether another server wrote it (the rows this server knows of that owner are old).
    var byOtherServer: Bool
}
