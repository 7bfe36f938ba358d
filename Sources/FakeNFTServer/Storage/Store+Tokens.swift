import Foundation

/// The tokens an account makes for its scripts and other clients (`token create`): sign-ins
/// with a name, which never idle out and may end at a time of their own.
extension Store {
    /// A named token as listed: the start of its hash as its id, and its sign-in.
    struct NamedToken: Sendable {
        let id: String
        let signedIn: ReadModel.SignedIn
    }

    /// A new token of `userID`'s, named `name`, ending at `expiresAt` when given: the token (shown
    /// once, kept only as its hash) and how it is listed.
    func createToken(userID: String, name: String, expiresAt: Date?) async throws -> (String, NamedToken) {
        let token = Tokens.make()
        let session = SessionRecord(
            tokenHash: Tokens.hash(token), userID: userID, createdAt: ISO8601DateFormatter().string(from: Date()),
            name: name, expiresAt: expiresAt.map { ISO8601DateFormatter().string(from: $0) } ?? "")
        _ = try await commit(owner: userID) { rows in rows.sessions.append(session) }
        return (token, NamedToken(id: SessionRecord.publicID(ofHash: session.tokenHash), signedIn: .init(session)))
    }

    /// The named tokens of `userID`, the oldest first (ended ones left out).
    func tokens(of userID: String, now: Date = Date()) async throws -> [NamedToken] {
        try await hashedTokens(of: userID, now: now).map {
            NamedToken(id: SessionRecord.publicID(ofHash: $0.0), signedIn: $0.1)
        }
    }

    /// Ends `userID`'s named token of id `id`; false when it has none.
    func revokeToken(userID: String, id: String) async throws -> Bool {
        guard
            let (hash, _) = try await hashedTokens(of: userID).first(where: {
                SessionRecord.publicID(ofHash: $0.0) == id
            })
        else { return false }
        return try await endSession(tokenHash: hash)
    }

    private func hashedTokens(of userID: String, now: Date = Date()) async throws -> [(String, ReadModel.SignedIn)] {
        try await current().signIns(of: userID).filter { $0.signedIn.isToken && !$0.signedIn.hasExpired(at: now) }
            .map { ($0.tokenHash, $0.signedIn) }.sorted { ($0.1.createdAt, $0.0) < ($1.1.createdAt, $1.0) }
    }
}
