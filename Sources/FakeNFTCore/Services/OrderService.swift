/// The one owner of the cart as the server holds it: loading, live updates, the NFTs sent (by the
/// app's outbox) and payment. What it publishes is the server's, with its version.
public actor OrderService {
    private let api: APIClient
    private let profile: ProfileService
    /// True once the order was read from the server (what is shown before may be the last run's).
    private var loaded = false
    /// The order's version on the server (its ETag), sent with changes as If-Match.
    private var version: String?
    private var paying = false
    private let broadcast = Broadcast<Versioned<Order>>()

    public init(api: APIClient, profile: ProfileService) {
        self.api = api
        self.profile = profile
    }

    /// The order as it changes, with its version, starting with the latest.
    public nonisolated func updates() -> AsyncStream<Versioned<Order>> { broadcast.subscribe() }
    public nonisolated var current: Order? { broadcast.latest?.value }

    /// Shows the cart the last run saw (``LastSeen``) until it is loaded (without a version:
    /// nothing is sent on its basis).
    public func remember(_ saved: Order) {
        guard !loaded else { return }
        broadcast.publish(Versioned(value: saved, version: nil))
    }

    /// Fetches the order from the server; answers it with its version.
    @discardableResult
    public func load() async throws -> Versioned<Order> {
        let fresh = try await api.versionedOrder()
        publish(fresh)
        return fresh
    }

    /// The order as another client changed it (a live update): taken unless it is older than
    /// what this client has.
    public func received(_ fresh: Versioned<Order>) {
        guard !fresh.isOlder(than: version), fresh.version != version else { return }
        publish(fresh)
    }

    /// Replaces the order's NFTs, only if it is still at `version`, the one they were chosen on
    /// (``APIError/versionConflict`` when it changed, or was never loaded: load it and send again;
    /// nil from a server without versions sends unconditionally).
    public func sendNFTs(_ nfts: [String], ifVersion base: String?) async throws -> Versioned<Order> {
        guard loaded, base != nil || version == nil else { throw APIError.versionConflict }
        let fresh = try await api.updateOrder(nfts: nfts, ifVersion: base)
        publish(fresh)
        return fresh
    }

    /// Pays for the cart as the server holds it (the app's outbox sends its changes first). On
    /// success the server moves the NFTs to the profile; the cart and the profile are then
    /// refreshed. A second call while one is running is refused.
    public func pay(currencyID: String) async throws -> PaymentResult {
        guard !paying else { throw PaymentInProgress() }
        paying = true
        defer { paying = false }
        let result = try await api.pay(currencyID: currencyID)
        if result.success {
            // Servers that do not clear the order themselves get the usual `nfts=null`.
            var fresh = try await api.versionedOrder()
            if !fresh.value.nfts.isEmpty { fresh = try await api.updateOrder(nfts: [], ifVersion: nil) }
            fresh.value = Order(id: fresh.value.id, nfts: [])
            publish(fresh)
            try await profile.load()
        }
        return result
    }

    private func publish(_ fresh: Versioned<Order>) {
        loaded = true
        version = fresh.version
        broadcast.publish(fresh)
    }
}

/// A payment was asked for while another one is running.
public struct PaymentInProgress: Error, Sendable {}
