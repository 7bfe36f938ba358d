import Foundation
import Synchronization

/// The accounts guests of the shop over SSH borrow, one guest at a time each: as many as guests
/// have been in at once (at most the sessions allowed), named after this server's data folder
/// (each server of a database has its own), cleared for each new guest and never listed in
/// `/users`. A guest's likes and cart last their session. Which are lent is the folder's
/// (``SSHSessionLedger``): servers sharing it never lend one to two guests.
final class SSHGuestAccounts: Sendable {
    private let store: Store
    private let ledger: SSHSessionLedger
    /// Names this server's guest accounts apart from other servers' on the same database.
    private let prefix: String
    /// Slots whose address another kind of account holds: never lent.
    private let passedOver = Mutex<Set<Int>>([])

    /// - Parameter folder: where this server's name for its guest accounts is kept (made once).
    init(store: Store, ledger: SSHSessionLedger, folder: URL) {
        self.store = store
        self.ledger = ledger
        let file = folder.appendingPathComponent("guest-accounts")
        if let kept = try? String(contentsOf: file, encoding: .utf8), kept.count == 16,
            kept.allSatisfy(\.isHexDigit)
        {
            prefix = kept
        } else {
            prefix = String(Tokens.hash(Tokens.make()).prefix(16))
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? prefix.write(to: file, atomically: true, encoding: .utf8)
        }
    }

    /// A guest account of its own, cleared, signed in with the token of `tokenHash`: its slot,
    /// given back with ``release(_:)`` when the session ends. Only an account the server made for
    /// guests is lent (``AccountKind/guest``); a slot whose address another account holds is
    /// passed over for good.
    func borrow(tokenHash: String) async throws -> Int {
        while true {
            let slot = ledger.claimSlot(passingOver: passedOver.withLock { $0 })
            do {
                let email = "guest-\(prefix)-\(slot)" + OwnerRows.guestAddressEnding
                let owner: String
                if let account = try await store.account(email: email) {
                    guard account.isGuests else {
                        passedOver.withLock { _ = $0.insert(slot) }
                        release(slot)
                        continue
                    }
                    owner = account.userID
                    try await store.startSession(userID: owner, tokenHash: tokenHash)
                } else {
                    owner = try await store.register(
                        name: "guest", email: email, passwordHash: SSHShop.noPassword, tokenHash: tokenHash,
                        kind: .guest, listed: false)
                }
                try await store.clearGuest(owner: owner)
                return slot
            } catch {
                release(slot)
                throw error
            }
        }
    }

    func release(_ slot: Int) { ledger.releaseSlot(slot) }
}
