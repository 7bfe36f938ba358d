import Crypto
import FakeNFTServer
import NIOSSH

/// SSH keys for tests that link them to accounts.
public enum TestSSHKey {
    /// A new Ed25519 public key as a line of `authorized_keys` (commented `test`), and its
    /// fingerprint; with `seed`, always the same key for the same seed (for snapshots).
    public static func make(seed: UInt8? = nil) -> (line: String, fingerprint: String) {
        let privateKey =
            seed.flatMap { try? Curve25519.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: $0, count: 32)) }
            ?? Curve25519.Signing.PrivateKey()
        let key = NIOSSHPrivateKey(ed25519Key: privateKey).publicKey
        return (String(openSSHPublicKey: key) + " test", SSHHostKey.fingerprint(key))
    }
}
