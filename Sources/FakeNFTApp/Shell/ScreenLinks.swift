import FakeNFTCore
import Localization
import ShopCommands
import TerminalUI

/// Opens the screen a link names (``ScreenLink``: `fakenft nft 42` on a terminal, `ssh -t host
/// nft 42`) over its tab, once what it shows is read; one that cannot be read is said and the
/// tabs open as usual.
@MainActor
enum ScreenLinks {
    static func open(_ link: ScreenLink, in shell: AppShell, context: AppContext) async {
        let services = context.services
        do {
            switch link {
            case .nft(let id):
                let nft = try await services.catalog.nft(id: id)
                shell.open(tab: 0, NFTScreen(model: NFTViewModel(nft: nft, collectionName: nil, context: context)))
            case .collection(let id):
                guard let collection = try await services.catalog.knownCollections().first(where: { $0.id == id })
                else { throw APIError.notFound }
                shell.open(
                    tab: 0, CollectionScreen(model: CollectionViewModel(collection: collection, context: context)))
            case .user(let id):
                let user = try await services.users.user(id: id)
                shell.open(tab: 3, UserScreen(user: user, context: context))
            case .cart: shell.open(tab: 1, nil)
            case .orders: shell.open(tab: 2, OrdersScreen(model: OrdersViewModel(context: context)))
            }
        } catch {
            context.effects.show(
                Toast(tr(.notOpened, "\(link.text): \(APIError(thrown: error).userMessage)"), kind: .error))
        }
    }
}
