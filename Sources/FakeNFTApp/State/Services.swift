import FakeNFTCore

/// The actor services every screen may call: made once, never changed.
public struct Services: Sendable {
    public let catalog: CatalogService
    public let profile: ProfileService
    public let order: OrderService
    /// The cart's NFTs, read while the Cart screen follows them.
    public let cartItems: CartItems
    public let users: UserService
    public let currencies: CurrencyService
    public let paidOrders: PaidOrderService
    public let accountKeys: AccountKeyService
    public let preferences: PreferencesStore
    /// The server's live updates, when it offers them.
    public let events: ServerEvents
    /// What they wait by: the API client's clock.
    public let clock: AppClock

    /// Where likes and cart changes made while the server cannot be reached are kept until it
    /// has them; nil: nowhere (they are kept in memory).
    public let kept: KeptChanges?

    public init(api: APIClient, preferences: PreferencesStore, kept: KeptChanges? = nil) {
        catalog = CatalogService(api: api)
        profile = ProfileService(api: api)
        order = OrderService(api: api, profile: profile)
        cartItems = CartItems(catalog: catalog)
        users = UserService(api: api)
        currencies = CurrencyService(api: api)
        paidOrders = PaidOrderService(api: api)
        accountKeys = AccountKeyService(api: api)
        events = api.events()
        clock = api.clock
        self.preferences = preferences
        self.kept = kept
    }
}
