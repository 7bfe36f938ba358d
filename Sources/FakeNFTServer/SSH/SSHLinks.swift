import Foundation
import Synchronization

/// What lets an SSH session's app move its key to another account: each session's app is given a
/// secret of its own (`FAKENFT_SSH_LINK`); a sign-in or sign-up that sends it (`sshLink`) makes the
/// session's key open the account signed in to from then on. Kept in memory while the session
/// lives: the app talks to the server that runs it.
final class SSHLinks: Sendable {
    private let keys = Mutex<[String: String]>([:])

    /// A new secret for a session of the key of `fingerprint`.
    func open(for fingerprint: String) -> String {
        let secret = Tokens.make()
        keys.withLock { $0[secret] = fingerprint }
        return secret
    }

    /// The session of `secret` has ended.
    func close(_ secret: String) { _ = keys.withLock { $0.removeValue(forKey: secret) } }

    /// The key of the session `secret` is given to, while it lasts.
    func key(for secret: String) -> String? { keys.withLock { $0[secret] } }
}
