import HummingbirdBcrypt
import NIOPosix

/// Passwords as bcrypt hashes (hummingbird-auth's bcrypt), worked out on NIO's thread pool so
/// that no event loop waits for them.
enum Passwords {
    /// bcrypt's cost: 2^10 rounds (about 50 ms on this machine in release).
    static let cost: UInt8 = 10
    /// Checked when an address has no account, so that the answer takes as long as a wrong password.
    static let decoy = Bcrypt.hash("not a password of anybody's", cost: cost)

    static func hash(_ password: String) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    static func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
