import Foundation
import GRDB

/// An account: its sign-in (the e-mail, and the password as a bcrypt hash only) and the user id
/// that names its profile, its order and its row in `/users`.
struct AccountRecord: Equatable, Sendable, StoredRecord {
    static let databaseTableName = "account"
    var userID: String
    var name: String
    var email: String
    /// The address lower-cased: unique, so two spellings of one address are one account.
    var emailKey: String
    var passwordHash: String
    /// ETH spent on all its purchases: its rating (rounded) in `/users`.
    var spent: Double
    var createdAt: String
    /// What the account is (``AccountKind``'s raw value): only a person's is signed in to with
    /// its address; an SSH key's and a guest's are the server's own.
    var kind: String

    enum Columns {
        static let userID = Column(CodingKeys.userID), emailKey = Column(CodingKeys.emailKey)
    }

    /// Whether its address and password sign in to it: a person's account, nothing the server made.
    var isPersons: Bool { kind == AccountKind.person.rawValue }
    /// Whether the SSH front lends it to its guests.
    var isGuests: Bool { kind == AccountKind.guest.rawValue }
}

/// Who an account is for, told by what it is rather than by its address: a person's (made by a
/// sign-up), an SSH key's (made on the key's first visit) or one the SSH front lends to guests.
/// The server's own have no password and are never signed in to with an address.
enum AccountKind: String, Sendable {
    case person, key, guest
}

/// A sign-in: the SHA-256 of its token (never the token), whose it is, and when it began and
/// was last used (ISO 8601; an empty `lastUsedAt` is `createdAt`). One with a name is a token the
/// account made for its scripts (``isToken``): it never idles out, and ends at `expiresAt` when
/// that is not empty.
struct SessionRecord: Equatable, Sendable, StoredRecord {
    static let databaseTableName = "session"
    var tokenHash: String
    var userID: String
    var createdAt: String
    var lastUsedAt: String
    var name: String
    var expiresAt: String

    init(
        tokenHash: String, userID: String, createdAt: String, lastUsedAt: String? = nil, name: String = "",
        expiresAt: String = ""
    ) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt ?? createdAt
        self.name = name
        self.expiresAt = expiresAt
    }

    /// How a token is named where it is listed and revoked: the start of its hash.
    static func publicID(ofHash tokenHash: String) -> String { String(tokenHash.prefix(12)) }

    /// When the session was last used (parsed without ICU).
    var lastUsed: Date {
        (try? Date(lastUsedAt, strategy: .iso8601)) ?? (try? Date(createdAt, strategy: .iso8601)) ?? .distantPast
    }

    enum Columns {
        static let tokenHash = Column(CodingKeys.tokenHash), userID = Column(CodingKeys.userID)
        static let lastUsedAt = Column(CodingKeys.lastUsedAt)
    }
}

/// An SSH key that signs in to an account (the shop over SSH): its SHA-256 fingerprint as
/// `ssh-keygen -l` prints it, whose account it opens, and since when.
struct SSHKeyRecord: Equatable, Sendable, StoredRecord {
    static let databaseTableName = "ssh_key"
    var fingerprint: String
    var userID: String
    var createdAt: String
}

/// What the app of an SSH key's visitor kept at the end of its last visit (``SSHVisitorState``,
/// encoded), and when.
struct SSHVisitorRecord: Equatable, Sendable, StoredRecord {
    static let databaseTableName = "ssh_visitor"
    var fingerprint: String
    var state: String
    var updatedAt: String
}
