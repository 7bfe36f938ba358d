import FakeNFTModels
import Foundation
import GRDB

/// Accounts: each one a profile, an order and a row in `/users` of its own.
extension Store {
    /// A new account and its first sign-in, in one transaction: the account, its empty profile
    /// and order, its row in the users table (last, with no NFTs and a rating of 0) and the
    /// session of `tokenHash`. Throws ``StoreError/emailTaken`` when the address has an account.
    func register(name: String, email: String, passwordHash: String, tokenHash: String) async throws -> String {
        let userID = "u-" + UUID().uuidString.lowercased()
        let now = ISO8601DateFormatter().string(from: Date())
        _ = try await commit(owner: userID, users: true, sessions: true) { db in
            if try AccountRecord.filter(AccountRecord.Columns.emailKey == AccountRules.emailKey(email)).fetchCount(db) > 0 {
                throw StoreError.emailTaken
            }
            try AccountRecord(userID: userID, name: name, email: email, emailKey: AccountRules.emailKey(email),
                              passwordHash: passwordHash, spent: 0, createdAt: now).insert(db)
            try ProfileRecord(Profile(id: userID, name: name, avatar: "", description: "", website: "", nfts: [], likes: [])).insert(db)
            try OrderRecord(Order(id: userID, nfts: [])).insert(db)
            let seq = (try Int.fetchOne(db, sql: "SELECT MAX(seq) FROM \(UserRecord.databaseTableName)") ?? -1) + 1
            try UserRecord(seq: seq, User(id: userID, name: name, avatar: "", description: nil, website: "", nfts: [], rating: "0")).insert(db)
            try SessionRecord(tokenHash: tokenHash, userID: userID, createdAt: now).insert(db)
        }
        return userID
    }

    /// The account of an address (compared without case), if it has one.
    func account(email: String) async throws -> AccountRecord? {
        try await pool.read { db in try AccountRecord.filter(AccountRecord.Columns.emailKey == AccountRules.emailKey(email)).fetchOne(db) }
    }

    /// The account a signed-in token belongs to.
    func account(userID: String) async throws -> AccountRecord? {
        try await pool.read { db in try AccountRecord.fetchOne(db, key: userID) }
    }

    /// Signs `userID` in with the token of `tokenHash`.
    func startSession(userID: String, tokenHash: String) async throws {
        let now = ISO8601DateFormatter().string(from: Date())
        _ = try await commit(owner: userID, sessions: true) { db in
            try SessionRecord(tokenHash: tokenHash, userID: userID, createdAt: now).insert(db)
        }
    }

    /// Signs the token of `tokenHash` out; false when it was not signed in.
    func endSession(tokenHash: String) async throws -> Bool {
        guard let owner = current.sessions[tokenHash] else { return false }
        return try await commit(owner: owner, sessions: true) { db in try SessionRecord.deleteOne(db, key: tokenHash) }.outcome
    }
}
