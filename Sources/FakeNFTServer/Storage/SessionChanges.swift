/// What a change did to an account's sign-ins, as a database writes it: the tokens (their
/// hashes) it ended, the sessions it added, and those it used (their time of last use moved).
struct SessionChanges: Equatable {
    var ended: [String]
    var added: [SessionRecord]
    var used: [SessionRecord]

    init(from before: [SessionRecord], to after: [SessionRecord]) {
        let was = Dictionary(before.map { ($0.tokenHash, $0) }, uniquingKeysWith: { $1 })
        let kept = Set(after.map(\.tokenHash))
        ended = before.map(\.tokenHash).filter { !kept.contains($0) }
        added = after.filter { was[$0.tokenHash] == nil }
        used = after.filter { session in was[session.tokenHash].map { $0 != session } ?? false }
    }
}
