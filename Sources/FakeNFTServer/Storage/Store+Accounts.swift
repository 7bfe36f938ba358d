import FakeNFTModels
import Foundation

/// Accounts: each one a profile, an order and a row in `/users` of its own.
extension Store {
    /// A new account and its first sign-in, in one change: the account, its empty profile
    /// and order, its row in the users table (last, with no NFTs and a rating of 0; not `listed`
    /// for an SSH key's until it does something) and the session of `tokenHash` (and the SSH key
    /// of `fingerprint`, when it is made for one). Throws
    /// ``StoreError/emailTaken`` when the address has an account. `kind` says whose it is.
    func register(
        name: String, email: String, passwordHash: String, tokenHash: String, kind: AccountKind = .person,
        key fingerprint: String? = nil, listed: Bool = true
    ) async throws -> String {
        let userID = "u-" + UUID().uuidString.lowercased()
        let now = Self.now()
        var rows = OwnerRows(
            profile: ProfileRecord(
                Profile(id: userID, name: name, avatar: "", description: "", website: "", nfts: [], likes: [])),
            order: OrderRecord(Order(id: userID, nfts: [])),
            account: AccountRecord(
                userID: userID, name: name, email: email, emailKey: AccountRules.emailKey(email),
                passwordHash: passwordHash, spent: 0, createdAt: now, kind: kind.rawValue),
            user: UserRecord(
                seq: 0, User(id: userID, name: name, avatar: "", description: nil, website: "", nfts: [], rating: "0"),
                listed: listed),
            sessions: [SessionRecord(tokenHash: tokenHash, userID: userID, createdAt: now)])
        rows.linksKey = fingerprint.map { SSHKeyRecord(fingerprint: $0, userID: userID, createdAt: now) }
        try await create(rows)
        return userID
    }

    /// `name` when no user in `/users` nor the shared profile has a name that looks like it
    /// (``AccountRules/lookAlikeKey(_:)``), else the first of `name-2`, `name-3`, … none looks like.
    func unusedUserName(_ name: String) -> String {
        let model = latest
        var taken = Set(model.userRecords.lazy.map { AccountRules.lookAlikeKey($0.name) })
        if let shared = model.profiles[Owner.shared],
            let profile = try? JSONDecoder().decode(Profile.self, from: Data(shared.json.readableBytesView))
        {
            taken.insert(AccountRules.lookAlikeKey(profile.name))
        }
        guard taken.contains(AccountRules.lookAlikeKey(name)) else { return name }
        return (2...).lazy.map { "\(name)-\($0)" }.first { !taken.contains(AccountRules.lookAlikeKey($0)) }!
    }

    /// The account the SSH key of `fingerprint` opens, if it has one.
    func owner(ofKey fingerprint: String) async throws -> String? {
        try await database.account(.key(fingerprint))?.userID
    }

    /// Makes the SSH key of `fingerprint` open `userID`'s account from now on.
    func link(key fingerprint: String, to userID: String) async throws {
        let now = Self.now()
        _ = try await commit(owner: userID) { rows in
            rows.linksKey = SSHKeyRecord(fingerprint: fingerprint, userID: userID, createdAt: now)
        }
    }

    /// What the app kept for the visitor of the SSH key of `fingerprint` (``SSHVisitorState``, encoded).
    func visitorState(ofKey fingerprint: String) async throws -> String? {
        try await database.visitor(key: fingerprint)?.state
    }

    /// Keeps `state` for the visitor of the SSH key of `fingerprint`, for any server of the database.
    func keep(visitorState state: String, ofKey fingerprint: String) async throws {
        try await database.keep(SSHVisitorRecord(fingerprint: fingerprint, state: state, updatedAt: Self.now()))
    }

    /// The account of an address (compared without case), if it has one.
    func account(email: String) async throws -> AccountRecord? {
        try await database.account(.emailKey(AccountRules.emailKey(email)))
    }

    /// The account a signed-in token belongs to.
    func account(userID: String) async throws -> AccountRecord? {
        try await database.account(.userID(userID))
    }

    /// Signs `userID` in with the token of `tokenHash`.
    func startSession(userID: String, tokenHash: String) async throws {
        let session = SessionRecord(tokenHash: tokenHash, userID: userID, createdAt: Self.now())
        _ = try await commit(owner: userID) { rows in rows.sessions.append(session) }
    }

    /// Signs guest account `userID` in with the token of `tokenHash` when nobody is signed in to
    /// it (it is lent to one guest at a time): false when somebody is.
    func lend(guest userID: String, tokenHash: String) async throws -> Bool {
        let session = SessionRecord(tokenHash: tokenHash, userID: userID, createdAt: Self.now())
        do {
            _ = try await commit(owner: userID) { rows in
                guard rows.sessions.isEmpty else { throw SignInRefused() }
                rows.sessions.append(session)
            }
            return true
        } catch is SignInRefused {
            return false
        }
    }

    /// The account signed in with the token of `tokenHash`: nil when it is not signed in, or its
    /// session was idle for ``sessionIdleLimit`` (it has expired). The sign-ins are the read
    /// model's; a token it does not know (signed in through another server a moment ago) is
    /// looked for in the database before it is refused. A use is written down when the last one
    /// written is older than a tenth of the limit (a day at most), so that a session in use never
    /// expires.
    func signedIn(tokenHash: String, now: Date = Date()) async throws -> String? {
        var known = latest.sessions[tokenHash]
        if known == nil { known = try await current().sessions[tokenHash] }
        guard let session = known, !session.hasExpired(at: now) else { return nil }
        let idle = now.timeIntervalSince(session.lastUsed)
        guard idle < sessionIdleLimit || session.isToken else { return nil }  // a named token never idles out
        if idle > min(sessionIdleLimit / 10, 86_400) {
            let time = ISO8601DateFormatter().string(from: now)
            do {
                _ = try await commit(owner: session.userID) { rows in
                    guard let index = rows.sessions.firstIndex(where: { $0.tokenHash == tokenHash }) else {
                        throw SignInRefused()
                    }
                    rows.sessions[index].lastUsedAt = time
                }
            } catch is SignInRefused {
                return nil  // ended meanwhile
            }
        }
        return session.userID
    }

    /// Ends every sign-in of `userID` (signing out everywhere); how many there were.
    func endSessions(userID: String) async throws -> Int {
        try await commit(owner: userID) { rows in
            defer { rows.sessions = [] }
            return rows.sessions.count
        }.outcome
    }

    /// Signs the token of `tokenHash` out; false when it was not signed in.
    func endSession(tokenHash: String) async throws -> Bool {
        var known = latest.sessions[tokenHash]
        if known == nil { known = try await current().sessions[tokenHash] }
        guard let owner = known?.userID else { return false }
        do {
            _ = try await commit(owner: owner) { rows in
                guard rows.sessions.contains(where: { $0.tokenHash == tokenHash }) else { throw SignInRefused() }
                rows.sessions.removeAll { $0.tokenHash == tokenHash }
            }
            return true
        } catch is SignInRefused {
            return false
        }
    }

    /// Now, as the database keeps times (ISO 8601).
    private static func now() -> String { ISO8601DateFormatter().string(from: Date()) }
}

/// A sign-in change the account's sign-ins as they are refuse: a guest account already lent, a
/// session already ended.
private struct SignInRefused: Error {}
