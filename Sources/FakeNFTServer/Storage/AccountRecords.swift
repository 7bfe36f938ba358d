import GRDB

/// An account: its sign-in (the e-mail, and the password as a bcrypt hash only) and the user id
/// that names its profile, its order and its row in `/users`.
struct AccountRecord: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
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

    enum Columns {
        static let userID = Column(CodingKeys.userID), emailKey = Column(CodingKeys.emailKey)
    }
}

/// A sign-in: the SHA-256 of its token (never the token) and whose it is.
struct SessionRecord: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "session"
    var tokenHash: String
    var userID: String
    var createdAt: String

    enum Columns {
        static let tokenHash = Column(CodingKeys.tokenHash), userID = Column(CodingKeys.userID)
    }
}
