/// The paid orders of the signed-in account (or the shared profile), read again each time they
/// are shown (a payment adds one); while the server cannot be reached, as last read in this run.
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
}
