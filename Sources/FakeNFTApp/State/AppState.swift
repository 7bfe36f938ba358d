import Localization
import FakeNFTCore
import Observation
import TerminalUI

/// What several screens show: the likes, the cart, the profile and the sort preferences,
/// mirrored on the main actor from the services' streams. Likes and cart changes show at once
/// and are rolled back (by the service's stream) with a toast when the server refuses them.
@MainActor @Observable
final class AppState {
    private(set) var likes: Set<String> = []
    /// The profile as last published by the profile service.
    private(set) var profile: Profile?
    /// The cart's NFT ids, nil until the order is loaded.
    private(set) var cart: [String]?
    /// Why the cart could not be loaded, when it could not.
    private(set) var cartFailure: APIError?
    private(set) var sort = SortPreferences()
    /// How what is shown stands against the server.
    private(set) var freshness = Freshness.current
    /// Likes and cart changes made while the server could not be reached, not sent yet.
    private(set) var waiting = 0
    /// True once there is anything to show: a saved copy, or an answer of the server.
    private(set) var seenAnything = false
    /// True while the changes kept for the server are being sent.
    @ObservationIgnored private var sendingKept = false

    @ObservationIgnored private let services: Services
    @ObservationIgnored private let effects: Effects
    /// What ``start()`` began (the streams followed, the first loads): ended by ``stop()``.
    @ObservationIgnored private var tasks: [Task<Void, Never>] = []
    /// Changes sent and not yet answered, by a number of their own.
    @ObservationIgnored private var writes: [Int: Task<Void, Never>] = [:]
    @ObservationIgnored private var nextWrite = 0
    /// Like and cart presses whose call into their service has not returned yet: until then, what
    /// the service publishes may not have them (the call waits its turn on the service's actor),
    /// so the lists shown here keep the presses and take the service's own once all have returned.
    @ObservationIgnored private var likePresses = 0
    @ObservationIgnored private var cartPresses = 0

    init(services: Services, effects: Effects, readOnly: Bool) {
        self.services = services
        self.effects = effects
        self.readOnly = readOnly
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

    /// The cart's ids, empty until it is loaded.
    var cartIDs: [String] { cart ?? [] }

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
        // What an earlier run kept for the server: shown now, sent once it answers.
        await services.profile.restoreKept()
        await services.order.restoreKept()
        await countWaiting()
        let profileUpdates = services.profile.updates(), orderUpdates = services.order.updates()
        tasks = [
            Task { [weak self] in
                for await value in profileUpdates {
                    guard let self else { return }
                    if likePresses == 0 { likes = Set(value.likes) }
                    profile = value
                }
            },
            Task { [weak self] in
                for await value in orderUpdates {
                    guard let self else { return }
                    if cartPresses == 0 { cart = value.nfts }
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
        guard waiting > 0, !sendingKept else { return }
        sendingKept = true
        write { [services, effects, weak self] in
            for send in [services.profile.sendKept, services.order.sendKept] {
                do { try await send() } catch {
                    await self?.keepFailed(error) { effects.show(Toast(tr(.keptChangesRefused, $0), kind: .error)) }
                }
            }
            self?.sendingKept = false
            await self?.countWaiting()
        }
    }

    /// Counts the changes that wait for the server.
    private func countWaiting() async {
        let likes = await services.profile.waiting, cart = await services.order.waiting
        waiting = likes + cart
    }

    /// A change failed with `error`: kept for the server (said by the status line), or `tell`
    /// gets the message.
    private func keepFailed(_ error: any Error, else tell: (String) -> Void) async {
        if let kept = error as? ChangeKept {
            unreachable(kept.reason)
            await countWaiting()
        } else if let refused = error as? KeptChangesRefused {  // the others were sent: these are named
            let known = (try? await services.catalog.nfts(ids: refused.ids)) ?? []
            tell(
                refused.ids.map { id in known.first { $0.id == id }.map { "«\($0.name)»" } ?? "#\(id)" }.joined(
                    separator: ", "))
        } else {
            tell(APIError(thrown: error).message)
        }
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
    /// right after a like or a cart change does not lose it.
    func finishWrites(within limit: Duration = .seconds(3)) async {
        let pending = Array(writes.values)
        guard !pending.isEmpty else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for write in pending { await write.value } }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
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

    /// A change `u` takes back: each is its own undoing (a like toggled again, the cart too).
    enum Change: Sendable {
        case like(NFT)
        case cart(NFT)
    }

    /// The changes made by the user, last last; `u` takes them back one by one.
    @ObservationIgnored private var done: [Change] = []
    static let undoSteps = 20

    /// Takes back the last like or cart change, through the same path as any change (so the
    /// server, and every window on it, sees it), and says what was taken back.
    func undo() {
        guard let change = done.popLast() else { return effects.show(Toast(tr(.nothingToUndo), kind: .note)) }
        switch change {
        case .like(let nft):
            toggleLike(nft, remembered: false)
            effects.show(Toast(tr(isLiked(nft) ? .undoneLike : .undoneUnlike, nft.name)))
        case .cart(let nft):
            toggleCart(nft, remembered: false)
            effects.show(Toast(tr(isInCart(nft) ? .undoneRemoval : .undoneAddition, nft.name)))
        }
    }

    private func remember(_ change: Change) {
        done.append(change)
        if done.count > Self.undoSteps { done.removeFirst() }
    }

    /// Likes or unlikes; shown in the same frame, rolled back with a toast on failure.
    /// `remembered`: `u` can take it back (not when it is an undoing).
    func toggleLike(_ nft: NFT, remembered: Bool = true) {
        if remembered { remember(.like(nft)) }
        let liking = likes.remove(nft.id) == nil
        if liking { likes.insert(nft.id) }  // the service's stream confirms or rolls back
        if remembered { UsageRecorder.current?.click(liking ? .like : .unlike, item: nft.id) }
        likePresses += 1
        write { [services, effects, weak self] in
            do { try await services.profile.toggleLike(nft.id) } catch {
                await self?.keepFailed(error) { effects.show(Toast(tr(.likeFailed, nft.name, $0), kind: .error)) }
            }
            guard let self else { return }
            likePresses -= 1
            if likePresses == 0, let current = services.profile.current { likes = Set(current.likes) }
        }
    }

    /// Adds to or removes from the cart; shown in the same frame, rolled back with a toast on failure.
    /// An NFT already owned is refused with a toast (the server would refuse it too).
    func toggleCart(_ nft: NFT, remembered: Bool = true) {
        if cartPlace(nft) == .owned {
            effects.show(Toast(tr(.alreadyOwned, nft.name), kind: .error))
            return
        }
        if remembered { remember(.cart(nft)) }
        var ids = cartIDs
        let index = ids.firstIndex(of: nft.id)
        if let index { ids.remove(at: index) } else { ids.append(nft.id) }
        cart = ids
        if remembered { UsageRecorder.current?.click(index == nil ? .cartAdd : .cartRemove, item: nft.id) }
        cartPresses += 1
        write { [services, effects, weak self] in
            do { try await services.order.toggle(nft.id) } catch {
                await self?.keepFailed(error) { effects.show(Toast(tr(.cartFailed, nft.name, $0), kind: .error)) }
            }
            guard let self else { return }
            cartPresses -= 1
            if cartPresses == 0, let current = services.order.current { cart = current.nfts }
        }
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
