import FakeNFTCore
import Foundation
import TerminalUI

/// What every screen shares: the services, a main-actor mirror of the likes, the cart and the
/// sort preferences, and ways to ask for a redraw or show a toast.
@MainActor
public final class AppContext {
    public let catalog: CatalogService
    public let profile: ProfileService
    public let order: OrderService
    public let users: UserService
    public let currencies: CurrencyService
    public let preferencesStore: PreferencesStore
    /// Whether pictures are drawn in colour.
    public let colors: Bool

    public private(set) var likes: Set<String> = []
    /// The profile as last published by the profile service.
    public private(set) var profileValue: Profile?
    public private(set) var cart: [String] = []
    public private(set) var sort = SortPreferences()
    /// Set by the app loop: redraw after a change that did not come from a key.
    public var invalidate: () -> Void = {}
    /// Set by the shell: show a short message.
    public var showToast: (Toast) -> Void = { _ in }
    /// Set by the app: put text on the terminal's clipboard.
    public var copyToClipboard: (String) -> Void = { _ in }
    private var observers: [Task<Void, Never>] = []

    public init(api: APIClient, preferences: PreferencesStore, colors: Bool) {
        catalog = CatalogService(api: api)
        profile = ProfileService(api: api)
        order = OrderService(api: api, profile: profile)
        users = UserService(api: api)
        currencies = CurrencyService(api: api)
        preferencesStore = preferences
        self.colors = colors
    }

    /// Follows the profile and the cart, and loads them.
    public func start() async {
        sort = await preferencesStore.current
        let profileUpdates = profile.updates(), orderUpdates = order.updates()
        observers = [
            Task { [weak self] in
                for await value in profileUpdates {
                    self?.likes = Set(value.likes)
                    self?.profileValue = value
                    self?.invalidate()
                }
            },
            Task { [weak self] in
                for await value in orderUpdates { self?.cart = value.nfts; self?.invalidate() }
            },
        ]
        // Two independent loads: one failing must not cancel the other.
        Task {
            do { try await profile.load() } catch {
                showToast(Toast("Could not load the profile: \(Self.message(for: error))", kind: .error))
            }
        }
        Task {
            do { try await order.load() } catch {
                showToast(Toast("Could not load the cart: \(Self.message(for: error))", kind: .error))
            }
        }
    }

    public func stop() { observers.forEach { $0.cancel() } }

    /// Likes or unlikes; shown in the same frame, rolled back with a toast on failure.
    public func toggleLike(_ nft: NFT) {
        if likes.remove(nft.id) == nil { likes.insert(nft.id) }   // the service's stream confirms or rolls back
        Task {
            do { try await profile.toggleLike(nft.id) } catch {
                showToast(Toast("Could not change the like on \(nft.name): \(Self.message(for: error))", kind: .error))
            }
        }
    }

    /// Adds to or removes from the cart; shown in the same frame, rolled back with a toast on failure.
    public func toggleCart(_ nft: NFT) {
        if let index = cart.firstIndex(of: nft.id) { cart.remove(at: index) } else { cart.append(nft.id) }
        Task {
            do { try await order.toggle(nft.id) } catch {
                showToast(Toast("Could not change the cart for \(nft.name): \(Self.message(for: error))", kind: .error))
            }
        }
    }

    /// Changes a sort preference and saves it.
    public func updateSort(_ change: @escaping @Sendable (inout SortPreferences) -> Void) {
        change(&sort)
        Task {
            do { try await preferencesStore.update(change) } catch {
                showToast(Toast("Could not save the sort order: \(error.localizedDescription)", kind: .error))
            }
        }
    }

    /// The NFTs of a list (a collection's, a user's, the profile's), fetched for the first
    /// ``CatalogService/maxListedNFTs`` ids; a longer list says so in a toast.
    public func listedNFTs(ids: [String]) async throws -> [NFT] {
        let nfts = try await catalog.nfts(ids: ids)
        if ids.count > CatalogService.maxListedNFTs {
            showToast(Toast("Showing the first \(CatalogService.maxListedNFTs) of \(ids.count) NFTs."))
        }
        return nfts
    }

    /// A message fit for the user, for any error.
    public static func message(for error: any Error) -> String {
        (error as? APIError)?.userMessage ?? String(describing: error)
    }
}

/// Loading state of a screen's data.
public enum LoadState: Equatable {
    case loading
    case loaded
    case failed(String)
}
