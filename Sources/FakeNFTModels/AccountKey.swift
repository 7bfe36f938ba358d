/// An SSH public key that opens an account (`GET /auth/keys`), as `ssh-keygen -l` names it.
public struct AccountKey: Codable, Sendable, Hashable, Identifiable {
    /// `SHA256:…`, unpadded base64 of the key's digest.
    public let fingerprint: String
    /// When it was linked to the account (ISO 8601).
    public let createdAt: String

    public var id: String { fingerprint }

    public init(fingerprint: String, createdAt: String) {
        self.fingerprint = fingerprint
        self.createdAt = createdAt
    }
}
