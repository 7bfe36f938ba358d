import Foundation
import Synchronization

/// Who the app of each SSH session speaks for: every session's app is given a secret of its own
/// (`FAKENFT_SSH_SESSION`) and sends it with every request (`FakeNFT-SSH-Session`). A request
/// from loopback that carries a live one is counted as its visitor (their own address, not the
/// loopback every app comes from: ``ForwardedClientMiddleware``), and a sign-in or sign-up that
/// carries a key's moves that key to the account signed in to. Kept in memory while the session
/// lives: the app talks to the server that runs it.
final class SSHVisitorPasses: Sendable {
    /// The visitor a secret speaks for.
    struct Holder: Sendable, Equatable {
        /// The key's fingerprint; nil for a guest.
        var fingerprint: String?
        /// Where the visitor came from (their own address, or the one a trusted proxy named).
        var address: String
        /// The session's number, given as its secret is made (``open(for:)``): not a secret.
        var session = 0
    }

    private let holders = Mutex<[String: Holder]>([:])
    private let opened = Atomic(0)

    /// A new secret for a session of `holder`.
    func open(for holder: Holder) -> String {
        let secret = Tokens.make()
        var holder = holder
        holder.session = opened.add(1, ordering: .relaxed).newValue
        holders.withLock { [holder] in $0[secret] = holder }
        return secret
    }

    /// The session of `secret` has ended.
    func close(_ secret: String) { _ = holders.withLock { $0.removeValue(forKey: secret) } }

    /// The visitor of the session `secret` is given to, while it lasts.
    func holder(of secret: String) -> Holder? { holders.withLock { $0[secret] } }
}
