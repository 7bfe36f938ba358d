/// The SSH keys that open an account: listed, linked and unlinked by the account itself.
extension Store {
    /// Why a key cannot be linked or unlinked, in words for the caller.
    struct KeyRefused: Error {
        let reason: String
    }

    /// The keys that open `userID`'s account.
    func keys(of userID: String) async throws -> [SSHKeyRecord] { try await database.keys(of: userID) }

    /// Makes the key of `fingerprint` open `userID`'s account too. A key that opens another
    /// account is moved only while that account is a key's that has done nothing (unlisted in
    /// `/users`): one that did something keeps its key (``KeyRefused``).
    func addKey(_ fingerprint: String, to userID: String) async throws {
        if let other = try await database.account(.key(fingerprint)) {
            guard other.userID != userID else { return }
            let listed = try await database.owned(by: [other.userID])[other.userID]?.user?.listed
            let unused = other.kind == AccountKind.key.rawValue && listed == false
            guard unused else {
                throw KeyRefused(reason: "that key opens an account of its own that has been used: it stays there")
            }
        }
        try await link(key: fingerprint, to: userID)
    }

    /// Unlinks the key of `fingerprint` from `userID`'s account; never an account's last way in
    /// (a key's account, which has no password, keeps its last key). False when the account has
    /// no such key.
    func removeKey(_ fingerprint: String, from userID: String) async throws -> Bool {
        let keys = try await keys(of: userID)
        guard keys.contains(where: { $0.fingerprint == fingerprint }) else { return false }
        if keys.count == 1, try await database.account(.userID(userID))?.isPersons != true {
            throw KeyRefused(reason: "that is the account's last key, its only way in: add another first")
        }
        _ = try await commit(owner: userID) { rows in rows.unlinksKey = fingerprint }
        return true
    }
}
