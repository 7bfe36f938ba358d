import FakeNFTCore
import Foundation

/// Choosing a currency and paying: one payment at a time, however often the key is pressed.
@MainActor
public final class PaymentViewModel {
    public enum Outcome: Equatable { case none, paying, succeeded, failed(String) }

    public private(set) var state: LoadState = .loading
    public private(set) var currencies: [Currency] = []
    public private(set) var outcome: Outcome = .none
    let context: AppContext
    public static let termsURL = "https://yandex.ru/legal/practicum_termsofuse/"

    public init(context: AppContext) { self.context = context }

    public func load() async {
        state = .loading
        context.invalidate()
        do {
            currencies = try await context.currencies.currencies()
            state = .loaded
        } catch {
            state = .failed(AppContext.message(for: error))
        }
        context.invalidate()
    }

    /// Pays with `currency`; ignored while a payment is already running.
    public func pay(with currency: Currency) async {
        guard outcome != .paying else { return }
        outcome = .paying
        context.invalidate()
        do {
            let result = try await context.order.pay(currencyID: currency.id)
            outcome = result.success ? .succeeded : .failed("The payment with \(currency.title) was declined.")
        } catch {
            outcome = .failed(AppContext.message(for: error))
        }
        context.invalidate()
    }

    /// Back to choosing after a failure.
    public func dismissFailure() { outcome = .none }
}
