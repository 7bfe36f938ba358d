import Localization
import FakeNFTCore
import Foundation
import Observation
import TerminalUI

/// The profile screen's data: the profile, the edit form and saving it.
@MainActor @Observable
final class ProfileViewModel: ViewModel {
    /// The profile as last loaded (or published by the profile service).
    private(set) var loaded: Loadable<Profile, APIError> = .loading
    /// The open edit form, if any.
    var form: ProfileForm?
    /// Why the last save failed.
    private(set) var formError: FormProblem?
    private(set) var saving = false
    /// What the owned NFTs are worth in ETH, once their prices are read, or why they could not be.
    private(set) var wallet: Loadable<Double, APIError> = .loading
    /// The latest paid orders (counted on the My orders row), once read.
    private(set) var orders: Loadable<[PaidOrder], APIError> = .loading
    /// The SSH keys that open the signed-in account, once read (``KeysScreen`` lists them).
    private(set) var keys: Loadable<[AccountKey], APIError> = .loading
    @ObservationIgnored let context: AppContext

    init(context: AppContext) { self.context = context }

    /// The profile shown: the app state's, which follows every change.
    var profile: Profile? { context.state.profile ?? loaded.value }

    /// What the screen shows: the profile, or why it is missing.
    var shown: Loadable<Profile, APIError> { profile.map { .loaded($0) } ?? loaded }

    func load() async {
        await load(\.loaded, keepingValue: true) {
            try await context.services.profile.load()
            guard let profile = context.services.profile.current else { throw APIError.notFound }
            return profile
        }
        if let failure = loaded.failure, profile != nil { context.state.tell(failure, as: .profileRefreshFailed) }
    }

    /// Reads the prices of the owned NFTs (the catalog keeps them) and adds them up; a failure
    /// is said in a toast (the wallet shows "unknown").
    func loadWallet() async {
        if profile == nil { await load() }
        guard let owned = profile?.nfts else { return }
        await load(\.wallet, keepingValue: true) {
            try await context.services.catalog.nfts(ids: owned).map(\.price).filter(\.isFinite).reduce(0, +)
        }
        if let failure = wallet.failure { context.state.tell(failure, as: .walletFailed) }
    }

    /// Reads the latest paid orders for their count (a server that keeps none leaves the row
    /// without one); they are then known offline too.
    func loadOrders() async {
        await load(\.orders, keepingValue: true) { try await context.services.paidOrders.latest() }
    }

    /// Reads the keys that open the account, while one is signed in (a guest's visit has none).
    func loadKeys() async {
        guard context.showsKeys else { return }
        await load(\.keys, keepingValue: true) { try await context.services.accountKeys.all() }
    }

    /// The My orders row's count: "100+" past the orders one page shows; nil until known.
    var ordersCount: String? {
        guard let orders = orders.value else { return nil }
        return orders.count < PaidOrderService.shownOrders ? String(orders.count) : "\(PaidOrderService.shownOrders)+"
    }

    func openForm() {
        guard let profile else { return }
        form = ProfileForm(profile: profile)
        formError = nil
    }

    func closeForm() { form = nil }

    /// Sends the form's changed fields. Closes the form when it still shows what was saved
    /// (what was typed meanwhile is kept); a failure keeps the text and says why.
    func save(_ submitted: ProfileForm) async {
        guard submitted.isValid else {
            formError = .invalidFields
            return
        }
        guard submitted.hasChanges else {
            form = nil
            return
        }
        saving = true
        defer { saving = false }
        do {
            try await context.services.profile.update(submitted.changes)
            if form?.edited == submitted.edited {
                form = nil
                formError = nil
            }
            context.effects.show(Toast(tr(.saved)))
        } catch {
            formError = .notSaved(APIError(thrown: error))
        }
    }
}
