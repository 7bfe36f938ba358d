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
    /// How users are ordered.
    public enum Order: String, Sendable, Hashable, Codable, CaseIterable {
        case rating, name
        /// The server's `sortBy` value.
        var sortBy: String { self == .rating ? "rating,desc" : "name,asc" }
    }

    public static let pageSize = 50
    private let api: APIClient
    private var pages: [Order: [Int: [User]]] = [:]

    public init(api: APIClient) { self.api = api }

    /// Page `page` (0-based) of users in `order`, cached for the life of the service.
    public func page(_ page: Int, order: Order) async throws -> [User] {
        if let cached = pages[order]?[page] { return cached }
        let users = try await api.users(page: page, size: Self.pageSize, sortBy: order.sortBy)
        pages[order, default: [:]][page] = users
        return users
    }

    public func user(id: String) async throws -> User { try await api.user(id: id) }
}
