/// The one owner of the cart: add and remove (optimistic, serialized) and payment.
public actor OrderService {
    private let api: APIClient
    private let profile: ProfileService
    private var order: Order?
    /// True once the order was read from the server (what is shown before may be the last run's).
    private var loaded = false
    /// Where cart changes made while the server cannot be reached are written down.
    private let keptItems: KeptChanges?
    /// The order's version on the server (its ETag), sent with changes as If-Match.
    private var version: String?
    private var paying = false
    /// A live update that came while this client's own changes were on their way: taken once
    /// they are answered, if it is still newer.
    private var held: Versioned<Order>?
    private let broadcast = Broadcast<Order>()
    private lazy var items = OptimisticList(
        [], send: { [weak self] nfts in try await self?.sendItems(nfts) ?? nfts },
        reload: { [weak self] in try await self?.reloadItems() ?? [] },
        changed: { [weak self] nfts in await self?.show(nfts) },
        kept: { [weak self] delta in await self?.keep(delta) })

    /// - Parameter kept: the file cart changes made offline are kept in until the server has them.
    public init(api: APIClient, profile: ProfileService, kept: KeptChanges? = nil) {
        self.api = api
        self.profile = profile
        keptItems = kept
    }

    public nonisolated func updates() -> AsyncStream<Order> { broadcast.subscribe() }
    public nonisolated var current: Order? { broadcast.latest }

    /// Shows the cart the last run saw (``LastSeen``) until it is loaded. Nothing is sent on its
    /// basis: a change loads the order first, and one made while it cannot be loaded is kept.
    public func remember(_ saved: Order) async {
        guard !loaded else { return }
        await items.reset(saved.nfts)
        publish(saved)
    }

    /// Takes back the cart changes an earlier run kept for the server (shown at once).
    public func restoreKept() async {
        if let keptItems { await items.restore(keptItems.load()) }
    }

    /// Sends the cart changes kept while the server could not be reached.
    public func sendKept() async throws {
        guard await items.waiting > 0 else { return }
        if !loaded { try await load() }
        try await items.sendKept()
    }

    /// How many cart changes wait for the server.
    public var waiting: Int { get async { await items.waiting } }

    @discardableResult
    public func load() async throws -> Order {
        let fresh = try await api.versionedOrder()
        await take(fresh)
        return fresh.value
    }

    /// The order as another client changed it (a live update): taken unless it is older than
    /// what this client has.
    public func received(_ fresh: Versioned<Order>) async {
        guard !ProfileService.isOlder(fresh.version, than: version), fresh.version != version else { return }
        if await items.isSending { return held = fresh }
        await take(fresh)
    }

    /// Takes a held live update once nothing of this client's is on its way.
    private func takeHeld() async {
        guard let fresh = held, await !items.isSending else { return }
        held = nil
        await received(fresh)
    }

    private func take(_ fresh: Versioned<Order>) async {
        loaded = true
        version = fresh.version
        await items.reset(fresh.value.nfts)
        var shown = fresh.value
        shown.nfts = await items.wanted  // with the changes kept for the server on top
        publish(shown)
    }

    /// Puts an NFT in the cart or takes it out; when the server cannot be reached, keeps the
    /// change and throws ``ChangeKept``.
    public func toggle(_ nftID: String) async throws {
        try await loadUnlessKeeping()
        try await change(nftID)
    }

    public func remove(_ nftID: String) async throws {
        try await loadUnlessKeeping()
        guard order?.nfts.contains(nftID) == true else { return }
        try await change(nftID)
    }

    /// Loads the order unless it was; when the server cannot be reached, a change is kept on top
    /// of the cart shown (the list sends nothing before a load).
    private func loadUnlessKeeping() async throws {
        guard !loaded else { return }
        do { try await load() } catch let error as APIError where error.isUnreachable && order != nil {}
    }

    private func change(_ nftID: String) async throws {
        do { try await items.toggle(nftID) } catch {
            await takeHeld()
            throw error
        }
        await takeHeld()
    }

    /// Pays for the cart as shown: the changes kept while the server was out of reach are sent
    /// first. On success the server moves the NFTs to the profile; the cart and the profile are
    /// then refreshed. A second call while one is running is refused.
    public func pay(currencyID: String) async throws -> PaymentResult {
        guard !paying else { throw PaymentInProgress() }
        paying = true
        defer { paying = false }
        try await sendKept()
        let result = try await api.pay(currencyID: currencyID)
        if result.success {
            // Servers that do not clear the order themselves get the usual `nfts=null`.
            var fresh = try await api.versionedOrder()
            if !fresh.value.nfts.isEmpty { fresh = try await api.updateOrder(nfts: [], ifVersion: nil) }
            version = fresh.version
            await items.reset([])
            publish(Order(id: fresh.value.id, nfts: []))
            try await profile.load()
        }
        return result
    }

    private func sendItems(_ nfts: [String]) async throws -> [String] {
        guard loaded else { throw APIError.versionConflict }  // never loaded: load, rebase, send
        let fresh = try await api.updateOrder(nfts: nfts, ifVersion: version)
        version = fresh.version
        return fresh.value.nfts
    }

    private func reloadItems() async throws -> [String] {
        let fresh = try await api.versionedOrder()
        version = fresh.version
        return fresh.value.nfts
    }

    private func keep(_ delta: IDDelta) {
        try? keptItems?.save(delta)
    }

    private func show(_ nfts: [String]) {
        publish(Order(id: order?.id ?? "1", nfts: nfts))
    }

    private func publish(_ value: Order) {
        order = value
        broadcast.publish(value)
    }
}

/// A payment was asked for while another one is running.
public struct PaymentInProgress: Error, Sendable {}
