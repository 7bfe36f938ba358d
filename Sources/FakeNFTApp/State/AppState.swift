import Localization
import FakeNFTCore
import Observation
import TerminalUI

/// What several screens show: the likes, the cart, the profile and the sort preferences. The
/// likes and the cart are the outbox's (``Outbox``: the server's lists with this window's pending
/// actions on top), the profile the profile service's; a change shows in the same frame.
@MainActor @Observable
final class AppState {
    /// The profile as last published by the profile service.
    private(set) var profile: Profile?
    /// Why the cart could not be loaded, when it could not.
    private(set) var cartFailure: APIError?
    private(set) var sort = SortPreferences()
    /// How what is shown stands against the server.
    private(set) var freshness = Freshness.current
    /// True once there is anything to show: a saved copy, or an answer of the server.
    private(set) var seenAnything = false

    @ObservationIgnored private let services: Services
    @ObservationIgnored private let effects: Effects
    /// The likes and cart actions of this window, and where each stands.
    @ObservationIgnored let outbox: Outbox
    /// What ``start()`` began (the streams followed, the first loads): ended by ``stop()``.
    @ObservationIgnored private var tasks: [Task<Void, Never>] = []
    /// Writes on their way (the sort preferences), by a number of their own.
    @ObservationIgnored private var writes: [Int: Task<Void, Never>] = [:]
    @ObservationIgnored private var nextWrite = 0

    init(services: Services, effects: Effects, readOnly: Bool) {
        self.services = services
        self.effects = effects
        self.readOnly = readOnly
        outbox = Outbox(server: Outbox.Server(services), file: services.kept, effects: effects, clock: services.clock)
        outbox.unreachable = { [weak self] in self?.unreachable($0) }
    }

    /// Whether nothing may be changed (``AppContext/readOnly``): the breadcrumb line says so.
    private let readOnly: Bool

    /// What the breadcrumb line says: read-only mode when it is on, then the server's standing.
    var status: String? {
        guard readOnly else { return serverStatus }
        return [tr(.statusReadOnly), serverStatus].compactMap { $0 }.joined(separator: " · ")
    }

    /// The freshness of what is shown, and the changes waiting for the server.
    private var serverStatus: String? {
        if freshness == .offline, !seenAnything, waiting == 0 { return tr(.statusOfflineNothingSeen) }
        guard waiting > 0 else { return freshness.label }
        return freshness == .offline ? tr(.statusOfflineWaiting, waiting) : tr(.statusWaiting, waiting)
    }

    /// The liked ids shown, to look up.
    var likes: Set<String> { outbox.liked }
    /// The liked ids shown, in the profile's order.
    var likedIDs: [String] { outbox.likes }
    /// The cart's ids shown, nil until the order is loaded.
    var cart: [String]? { outbox.cart }
    /// The cart's ids, empty until it is loaded.
    var cartIDs: [String] { cart ?? [] }
    /// Likes and cart changes made while the server could not be reached, not sent yet.
    var waiting: Int { outbox.waiting }

    func isLiked(_ nft: NFT) -> Bool { likes.contains(nft.id) }
    func isInCart(_ nft: NFT) -> Bool { cartIDs.contains(nft.id) }
    /// True when the profile holds `nft`: it was bought, and cannot be bought again.
    func isOwned(_ nft: NFT) -> Bool { profile?.nfts.contains(nft.id) == true }

    /// Where `nft` stands for the cart button.
    func cartPlace(_ nft: NFT) -> CartPlace {
        if isInCart(nft) { return .inCart }
        return isOwned(nft) ? .owned : .outOfCart
    }

    /// Follows the profile and the cart (and the server's live updates of them), and loads them;
    /// until they answer, shows what the last run saw (`seen`), if anything.
    func start(remembering seen: LastSeen? = nil) async {
        sort = await services.preferences.current
        if let seen, !seen.isEmpty {
            await services.catalog.remember(seen)
            await services.users.remember(seen)
            if let profile = seen.profile { await services.profile.remember(profile) }
            if let order = seen.order { await services.order.remember(order) }
            if let orders = seen.paidOrders { await services.paidOrders.remember(orders) }
            freshness = .savedCopy
            seenAnything = true
        }
        outbox.restore()  // what an earlier run kept for the server: shown now, sent once it answers
        let profileUpdates = services.profile.updates(), orderUpdates = services.order.updates()
        tasks = [
            Task { [weak self] in
                for await value in profileUpdates {
                    guard let self else { return }
                    outbox.take(.likes, value.map(\.likes))
                    profile = value.value
                }
            },
            Task { [weak self] in
                for await value in orderUpdates {
                    guard let self else { return }
                    outbox.take(.cart, value.map(\.nfts))
                    cartFailure = nil
                }
            },
            Task { [services, weak self] in
                await LiveUpdates.follow(services) { [weak self] connected in
                    if connected { self?.reached() } else { self?.unreachable(.offline("")) }
                }
            },
        ]
        // Two independent loads: one failing must not cancel the other.
        let profileLoad = Task { [services, weak self] in
            do {
                try await services.profile.load()
                self?.reached()
            } catch {
                self?.tell(APIError(thrown: error), as: .profileLoadFailed)
            }
        }
        let cartLoad = Task<Void, Never> { [weak self] in await self?.loadCart() }
        let listed = Task { [services] in
            _ = await (profileLoad.value, cartLoad.value)
            await Self.fetchListedNFTs(services)
            await Self.fetchForOffline(services)
        }
        tasks += [profileLoad, cartLoad, listed]
    }

    /// Reads the NFTs the tabs list beside the catalog (the cart's, the favourites', the wallet's)
    /// into the catalog's cache once the profile and the cart are loaded, so every tab reads
    /// offline, never opened or not, and the saved copy holds them for the next start.
    private static func fetchListedNFTs(_ services: Services) async {
        let profile = services.profile.current
        var distinct = Set<String>()
        let ids = ((services.order.current?.nfts ?? []) + (profile?.likes ?? []) + (profile?.nfts ?? [])).filter {
            distinct.insert($0).inserted
        }
        guard !ids.isEmpty else { return }
        _ = try? await services.catalog.nfts(ids: ids)  // what fails is read again when its tab opens
    }

    /// The most NFTs of the catalog's collections read ahead for offline use.
    static let readAheadNFTs = 1_000

    /// Reads ahead what the other tabs show, so that each reads offline from the saved copy:
    /// the NFTs of every collection (the first ``readAheadNFTs``, in the catalog's order), the
    /// authors' names, the rating's first page in each order and the paid orders. What fails is
    /// read when shown.
    private static func fetchForOffline(_ services: Services) async {
        _ = try? await services.paidOrders.latest()
        guard let collections = try? await services.catalog.knownCollections() else { return }
        let ids = Array(collections.flatMap(\.nfts).prefix(readAheadNFTs))
        let nfts = (try? await services.catalog.nfts(ids: ids)) ?? []
        let authors = Set((collections.map(\.author) + nfts.map(\.author)).filter(AuthorName.isUserID).prefix(200))
        _ = await AuthorName.resolveAll(authors, users: services.users)
        for sorting in UserService.Sorting.allCases { _ = try? await services.users.page(0, sorting: sorting) }
    }

    /// Loads the cart from the server (again, after a failure).
    func loadCart() async {
        do {
            try await services.order.load()
            reached()
        } catch {
            let failure = APIError(thrown: error)
            unreachable(failure)
            if cart == nil { cartFailure = failure }
        }
    }

    /// The server answered: what is shown is current (or becomes so as the loads answer), and
    /// the changes kept for it are sent.
    func reached() {
        freshness = .current
        seenAnything = true
        outbox.sendKept()
    }

    /// A request failed with `failure`. When the server cannot be reached, the breadcrumb line says so
    /// once (true: the caller need not say it again); other failures are the caller's to tell.
    @discardableResult
    func unreachable(_ failure: APIError) -> Bool {
        guard failure.isUnreachable else { return false }
        freshness = .offline
        return true
    }

    /// Says `failure` in a toast in `key`'s words (with its message), unless the server cannot
    /// be reached: then the breadcrumb line says so, once.
    func tell(_ failure: APIError, as key: TextKey) {
        if !unreachable(failure) { effects.show(Toast(tr(key, failure.message), kind: .error)) }
    }

    func stop() { tasks.forEach { $0.cancel() } }

    /// Waits (at most `limit`) for the changes still on their way to the server, so quitting
    /// right after a like or a cart change does not lose it. A server that does not answer holds
    /// the quit no longer (waiting for a task's end cannot be cancelled, so the wait is a stream's).
    func finishWrites(within limit: Duration = .seconds(3)) async {
        let pending = Array(writes.values) + [Task { [outbox] in await outbox.settle() }]
        let (ends, end) = AsyncStream.makeStream(of: Void.self)
        Task {
            for write in pending { await write.value }
            end.yield()
        }
        let timer = Task { [clock = services.clock] in
            try? await clock.sleep(for: limit)
            end.yield()
        }
        for await _ in ends { break }
        timer.cancel()
    }

    /// Runs `change` as a write that ``finishWrites(within:)`` waits for.
    private func write(_ change: @escaping @MainActor () async -> Void) {
        let id = nextWrite
        nextWrite += 1
        writes[id] = Task { [weak self] in
            await change()
            self?.writes[id] = nil
        }
    }

    /// Takes back the newest like or cart action (a batch whole), through the same path as any
    /// change (so the server, and every window on it, sees it), and says what was taken back.
    func undo() {
        guard let action = outbox.undo() else { return effects.show(Toast(tr(.nothingToUndo), kind: .note)) }
        let adding = action.changes.first?.adding ?? false
        if action.changes.count == 1, let name = action.changes.first?.name {
            let key: TextKey =
                switch action.list {
                case .likes: adding ? .undoneUnlike : .undoneLike
                case .cart: adding ? .undoneAddition : .undoneRemoval
                }
            return effects.show(Toast(tr(key, name)))
        }
        let key: TextKey =
            switch action.list {
            case .likes: adding ? .undoneBatchUnlike : .undoneBatchLike
            case .cart: adding ? .undoneBatchAddition : .undoneBatchRemoval
            }
        effects.show(Toast(tr(key, Format.count(action.changes.count, .nfts))))
    }

    /// Likes or unlikes; shown in the same frame, taken back with a toast if the server refuses.
    func toggleLike(_ nft: NFT) { setLiked([nft], !isLiked(nft)) }

    /// Likes (or unlikes) those of `nfts` that are not yet, as one action `u` takes back whole;
    /// answers how many changed.
    @discardableResult
    func setLiked(_ nfts: [NFT], _ liking: Bool) -> Int {
        let changing = nfts.filter { isLiked($0) != liking }
        for nft in changing { UsageRecorder.current?.click(liking ? .like : .unlike, item: nft.id) }
        return record(.likes, changing, adding: liking)
    }

    /// Adds to or removes from the cart; shown in the same frame, taken back with a toast if the
    /// server refuses. An NFT already owned is refused with a toast (the server would refuse it too).
    func toggleCart(_ nft: NFT) {
        if cartPlace(nft) == .owned { return effects.show(Toast(tr(.alreadyOwned, nft.name), kind: .error)) }
        setInCart([nft], !isInCart(nft))
    }

    /// Puts in the cart (or takes out) those of `nfts` that are not yet, as one action `u` takes
    /// back whole; NFTs already owned are never put in. Answers how many changed.
    @discardableResult
    func setInCart(_ nfts: [NFT], _ adding: Bool) -> Int {
        let changing = nfts.filter { isInCart($0) != adding && (!adding || cartPlace($0) != .owned) }
        for nft in changing { UsageRecorder.current?.click(adding ? .cartAdd : .cartRemove, item: nft.id) }
        return record(.cart, changing, adding: adding)
    }

    private func record(_ list: OutboxAction.List, _ nfts: [NFT], adding: Bool) -> Int {
        guard !nfts.isEmpty else { return 0 }
        outbox.record(
            OutboxAction(
                list: list, changes: nfts.map { OutboxAction.Change(id: $0.id, name: $0.name, adding: adding) }))
        return nfts.count
    }

    /// Pays for the cart shown: the cart's pending changes are sent first.
    func pay(currencyID: String) async throws -> PaymentResult {
        try await outbox.sendCart()
        return try await services.order.pay(currencyID: currencyID)
    }

    /// Changes a sort preference and saves it.
    func updateSort(_ change: @escaping @Sendable (inout SortPreferences) -> Void) {
        change(&sort)
        write { [services, effects] in
            do throws(PreferencesNotSaved) { try await services.preferences.update(change) } catch {
                effects.show(Toast(tr(.sortSaveFailed, error.path), kind: .error))
            }
        }
    }
}

/// How what the app shows stands against the server.
enum Freshness: Sendable {
    /// As the server last said.
    case current
    /// What the last run saw, until the server answers.
    case savedCopy
    /// The server cannot be reached: what is shown is what was last seen.
    case offline

    /// What the breadcrumb line says of it; nil when there is nothing to say.
    var label: String? {
        switch self {
        case .current: nil
        case .savedCopy: tr(.statusSavedCopy)
        case .offline: tr(.statusOffline)
        }
    }
}

/// Where an NFT stands for the cart button.
enum CartPlace: Sendable {
    case inCart, outOfCart
    /// Bought already: shown as owned, never put in the cart.
    case owned
}
