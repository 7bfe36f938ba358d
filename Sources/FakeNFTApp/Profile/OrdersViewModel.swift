import FakeNFTCore
import Observation

/// The paid orders of the profile shown (``PaidOrderService``), the latest first.
@MainActor @Observable
final class OrdersViewModel: ViewModel {
    private(set) var orders: Loadable<[PaidOrder], APIError> = .loading
    /// The server keeps no order history (a server without the accounts extension).
    private(set) var notKept = false
    @ObservationIgnored let context: AppContext

    init(context: AppContext) { self.context = context }

    func load() async {
        await load(\.orders, keepingValue: true) {
            do {
                let orders = try await context.services.paidOrders.latest()
                notKept = false
                return orders
            } catch APIError.notFound {
                notKept = true
                return []
            }
        }
    }
}
