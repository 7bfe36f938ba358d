/// The currencies one can pay with, fetched once.
public actor CurrencyService {
    private let api: APIClient
    private var cached: [Currency]?

    public init(api: APIClient) { self.api = api }

    public func currencies() async throws -> [Currency] {
        if let cached { return cached }
        let fresh = try await api.currencies()
        cached = fresh
        return fresh
    }
}

/// Other users, fetched page by page in the order the server sorts them.
public actor UserService {
    /// How users are sorted.
    public enum Sorting: String, Sendable, Hashable, Codable, CaseIterable {
        case rating, name
        /// The server's `sortBy` value.
        var sortBy: String { self == .rating ? "rating,desc" : "name,asc" }
    }

    public static let pageSize = 50
    private let api: APIClient
    private var pages: [Sorting: [Int: [User]]] = [:]

    public init(api: APIClient) { self.api = api }

    /// Page `page` (0-based) of users sorted by `sorting`, cached for the life of the service.
    public func page(_ page: Int, sorting: Sorting) async throws -> [User] {
        if let cached = pages[sorting]?[page] { return cached }
        let users = try await api.users(page: page, size: Self.pageSize, sortBy: sorting.sortBy)
        pages[sorting, default: [:]][page] = users
        return users
    }

    public func user(id: String) async throws -> User { try await api.user(id: id) }
}
