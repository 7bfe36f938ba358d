import Foundation
import Synchronization

/// The accounts guests of the shop over SSH borrow, one guest at a time each: as many as guests
/// have been in at once (at most the sessions allowed), the database's (every server on it lends
/// the same ones), cleared for each new guest and never listed in `/users`. An account is lent
/// while a guest's session is signed in to it: the database adds that sign-in only when the
/// account has none (``Store/lend(guest:tokenHash:)``), so no two guests share one, whichever
/// servers lent it, and the sign-in's end (the session's, or the next start's after a crash)
/// gives it back. A guest's likes and cart last their session.
final class SSHGuestAccounts: Sendable {
    private let store: Store
    /// Slots whose address another kind of account holds: never lent.
    private let passedOver = Mutex<Set<Int>>([])

    init(store: Store) { self.store = store }

    /// The address of guest account `slot`.
    static func address(ofSlot slot: Int) -> String { "guest-\(slot)" + OwnerRows.guestAddressEnding }

    /// A guest account of its own, cleared, signed in with the token of `tokenHash`: its slot.
    /// Only an account the server made for guests is lent (``AccountKind/guest``); a slot whose
    /// address another account holds is passed over for good. When clearing it fails, the
    /// sign-in is ended again (the account is free for the next guest).
    @discardableResult func borrow(tokenHash: String) async throws -> Int {
        var slot = 0
        while true {
            if passedOver.withLock({ $0.contains(slot) }) {
                slot += 1
                continue
            }
            let owner: String
            if let account = try await store.account(email: Self.address(ofSlot: slot)) {
                guard account.isGuests else {
                    passedOver.withLock { _ = $0.insert(slot) }
                    continue
                }
                guard try await store.lend(guest: account.userID, tokenHash: tokenHash) else {
                    slot += 1
                    continue
                }
                owner = account.userID
            } else {
                do {
                    owner = try await store.register(
                        name: "guest", email: Self.address(ofSlot: slot), passwordHash: SSHShop.noPassword,
                        tokenHash: tokenHash, kind: .guest, listed: false)
                } catch StoreError.emailTaken {
                    continue  // another server made it a moment ago: asked again
                }
            }
            do {
                try await store.clearGuest(owner: owner)
            } catch {
                _ = try? await store.endSession(tokenHash: tokenHash)
                throw error
            }
            return slot
        }
    }
}
