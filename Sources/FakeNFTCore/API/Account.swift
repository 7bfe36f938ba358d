/// A signed-in account as the server answers it (`fakenft serve`'s accounts extension): the
/// token only right after signing up or in.
public struct Account: Codable, Sendable, Hashable {
    public var token: String?
    public var userId: String
    public var name: String
    public var email: String

    public init(token: String?, userId: String, name: String, email: String) {
        self.token = token
        self.userId = userId
        self.name = name
        self.email = email
    }
}
