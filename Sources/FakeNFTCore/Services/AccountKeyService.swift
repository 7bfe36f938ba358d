/// The SSH keys that open the signed-in account, read each time they are shown (`fakenft keys
/// add` or `keys remove` may have changed them meanwhile).
public struct AccountKeyService: Sendable {
    private let api: APIClient

    public init(api: APIClient) { self.api = api }

    /// The keys, as the server lists them.
    public func all() async throws -> [AccountKey] { try await api.accountKeys() }
}
