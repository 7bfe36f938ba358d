/// The paid orders of the signed-in account (or the shared profile), read again each time they
/// are shown (a payment adds one); while the server cannot be reached, as last read (in this run,
/// or the last one: ``remember(_:)``).
public actor PaidOrderService {
    private let api: APIClient
    private var lastRead: [PaidOrder]?

    /// The most orders shown: the latest ones, one page of the server's.
    public static let shownOrders = 100

    public init(api: APIClient) { self.api = api }

    /// The latest ``shownOrders`` orders, the latest first.
    public func latest() async throws -> [PaidOrder] {
        do {
            let orders = try await api.paidOrders(page: 0, size: Self.shownOrders)
            lastRead = orders
            return orders
        } catch let error as APIError {
            if case .offline = error, let lastRead { return lastRead }
            throw error
        }
    }

    /// The orders as last read, if they were (kept for the next run).
    public func seen() -> [PaidOrder]? { lastRead }

    /// Takes the orders the last run read, until they are read again.
    public func remember(_ orders: [PaidOrder]) {
        if lastRead == nil { lastRead = orders }
    }
}
