import FakeNFTCore

/// The actor services every screen may call: made once, never changed.
public struct Services: Sendable {
    public let catalog: CatalogService
    public let profile: ProfileService
    public let order: OrderService
    public let users: UserService
    public let currencies: CurrencyService
    public let preferences: PreferencesStore
    /// The server's live updates, when it offers them.
    public let events: ServerEvents

    public init(api: APIClient, preferences: PreferencesStore) {
        catalog = CatalogService(api: api)
        profile = ProfileService(api: api)
        order = OrderService(api: api, profile: profile)
        users = UserService(api: api)
        currencies = CurrencyService(api: api)
        events = ServerEvents(api.configuration)
        self.preferences = preferences
    }
}
