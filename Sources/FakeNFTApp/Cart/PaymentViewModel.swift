import Localization
import FakeNFTCore
import Foundation
import Observation

/// Choosing a currency and paying: one payment at a time, however often the key is pressed.
@MainActor @Observable
final class PaymentViewModel: ViewModel {
    enum Outcome: Equatable { case none, paying, succeeded, failed(PaymentFailure) }

    private(set) var currencies: Loadable<[Currency], APIError> = .loading
    private(set) var outcome: Outcome = .none
    @ObservationIgnored let context: AppContext
    /// Attempts per currency id, so a repeated refusal says it is a new answer.
    @ObservationIgnored private var attempts: [String: Int] = [:]
    static let termsURL = "https://yandex.ru/legal/practicum_termsofuse/"

    /// What is paid for, as the cart showed it when Pay was chosen: the Pay button says the total,
    /// the success screen shows the first one's picture.
    let items: [NFT]
    var total: Double { items.reduce(0) { $0 + $1.price } }

    init(context: AppContext, items: [NFT]) {
        self.context = context
        self.items = items
    }

    func load() async {
        await load(\.currencies) { try await context.services.currencies.currencies() }
    }

    /// Pays with `currency`; ignored while a payment is already running.
    func pay(with currency: Currency) async {
        guard outcome != .paying else { return }
        outcome = .paying
        attempts[currency.id, default: 0] += 1
        let attempt = attempts[currency.id] ?? 1
        do {
            let result = try await context.state.pay(currencyID: currency.id)
            outcome = result.success ? .succeeded : .failed(.declined(currency: currency.title, attempt: attempt))
        } catch {
            outcome = .failed(.failed(APIError(thrown: error), attempt: attempt))
        }
    }

    /// Back to choosing after a failure.
    func dismissFailure() { outcome = .none }
}
