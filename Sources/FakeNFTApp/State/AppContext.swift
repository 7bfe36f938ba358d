import FakeNFTCore
import TerminalUI

/// What a screen is built with: the services, the shared app state, the effects, and whether
/// pictures are drawn in colour. Everything is given at init; nothing is set later.
@MainActor
public struct AppContext {
    public let services: Services
    let state: AppState
    public let effects: Effects
    /// Whether pictures are drawn in colour.
    public let colors: Bool

    public init(services: Services, effects: Effects, colors: Bool) {
        self.services = services
        self.state = AppState(services: services, effects: effects)
        self.effects = effects
        self.colors = colors
    }

    /// The NFTs of a list (a collection's, a user's, the profile's), fetched for the first
    /// ``CatalogService/maxListedNFTs`` ids; a longer list says so in a toast.
    public func listedNFTs(ids: [String]) async throws -> [NFT] {
        let nfts = try await services.catalog.nfts(ids: ids)
        if ids.count > CatalogService.maxListedNFTs {
            effects.show(Toast("Showing the first \(CatalogService.maxListedNFTs) of \(ids.count) NFTs."))
        }
        return nfts
    }
}
