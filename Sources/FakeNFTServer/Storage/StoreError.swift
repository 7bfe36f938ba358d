/// Why the store refused a change or a database. The HTTP layer decides what each one answers.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A list names an NFT that does not exist.
    case unknownNFT(field: String, id: String)
    /// An order names an NFT its buyer already owns: it cannot be bought twice.
    case alreadyOwned(field: String, id: String)
    /// A currency that does not exist.
    case unknownCurrency(String)
    /// The resource changed since the version the client named (If-Match).
    case versionMismatch(resource: String, current: Int)
    /// A sign-up with an address that already has an account.
    case emailTaken
    /// The database file is not one the server can use.
    case damaged(String)
    /// The database does not answer (PostgreSQL down or unreachable): try again later.
    case unavailable(String)
    /// The database cannot store a change: its disk is full, or it is read-only (a file, a
    /// volume, a standby server). Reads go on; writes are answered 503 with the reason.
    case cannotWrite(String)
    /// The database holds migrations this server does not know: a newer server wrote it.
    case newerDatabase(database: String, migrations: [String])

    public var description: String {
        switch self {
        case .unknownNFT(let field, let id): "\(field): unknown NFT id '\(id)'"
        case .alreadyOwned(let field, let id): "\(field): NFT '\(id)' is already owned by this buyer"
        case .unknownCurrency(let id): "currency '\(id)' not found"
        case .versionMismatch(let resource, let current):
            "the \(resource) has changed (it is now version \(current)); reload it and apply the change again"
        case .emailTaken: "an account with this e-mail address already exists"
        case .damaged(let why): why
        case .unavailable(let why): "the database is not answering (\(why))"
        case .cannotWrite(let why): "the database cannot store changes (\(why))"
        case .newerDatabase(let database, let migrations):
            """
            \(database) was written by a newer fakenft than this one: it holds \
            \(migrations.count == 1 ? "the migration" : "the migrations") \(migrations.joined(separator: ", ")), \
            which this server does not know, so it is not served; run that newer fakenft, or start this one on \
            another --data folder (or PostgreSQL database)
            """
        }
    }
}
