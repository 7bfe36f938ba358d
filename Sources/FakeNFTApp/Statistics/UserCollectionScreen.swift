import Localization
import FakeNFTCore
import TerminalUI

/// A user's NFTs: the grid with like and cart toggles, as in the Catalog. An NFT opened from
/// here shows its own collection and author, looked up on the server.
@MainActor
final class UserCollectionScreen: Screen {
    let tasks = TaskBag()
    let model: UserCollectionViewModel
    private let pane: GridPane<NFT>
    /// What the grid's keys do.
    private let actions: NFTGridActions

    init(model: UserCollectionViewModel) {
        self.model = model
        let pane = GridPane { model.nfts.value ?? [] }, tasks = tasks
        self.pane = pane
        actions = NFTGridActions(
            pane: pane, context: model.context, keys: { NFTGridKeys.userNFTs }, failed: { model.nfts.failure != nil },
            reload: { tasks.run { await model.load() } })
    }

    var title: String { tr(.nftCollection) }
    var usage: UsageEvent.Screen { .userCollection }
    var isAnimating: Bool { model.nfts.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] { actions.layers(title: title) }

    func render(in rect: Rect, buffer: inout Buffer) {
        if let status = StatusView(model.nfts, what: .userCollection, retry: NFTGridKeys.userNFTs.key(for: .retry)) {
            buffer.render(status, in: rect)
            return
        }
        if model.nfts.value?.isEmpty != false {
            return buffer.render(EmptyNote(tr(.userNoNFTs, model.user.name)), in: rect)
        }
        pane.renderNFTs(
            in: rect, buttons: actions.buttons, state: model.context.state, pictures: model.context.pictures,
            buffer: &buffer)
    }
}
