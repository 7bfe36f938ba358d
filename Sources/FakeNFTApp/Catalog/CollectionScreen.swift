import Localization
import FakeNFTCore
import TerminalUI

/// A collection: cover, name, description, author link, and the grid of its NFTs.
@MainActor
final class CollectionScreen: Screen {
    let tasks = TaskBag()
    let model: CollectionViewModel
    private let pane: GridPane<NFT>
    /// What the grid's keys do.
    private let actions: NFTGridActions

    init(model: CollectionViewModel) {
        self.model = model
        let pane = GridPane { model.nfts.value ?? [] }, tasks = tasks
        self.pane = pane
        actions = NFTGridActions(
            pane: pane, context: model.context, keys: { NFTGridKeys.collection }, failed: { model.nfts.failure != nil },
            reload: { tasks.run { await model.load() } },
            opened: {
                NFTScreen(model: NFTViewModel(nft: $0, collectionName: model.collection.name, context: model.context))
            }, author: { Self.openAuthor(of: model) })
    }

    var title: String { model.collection.name }
    var usage: UsageEvent.Screen { .collection }
    var usageItem: String? { model.collection.id }
    var isAnimating: Bool { model.nfts.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] { actions.layers(title: tr(.layerCollection)) }

    /// The reader pane on the collection's author's page, or why there is none (yet).
    private static func openAuthor(of model: CollectionViewModel) -> ScreenCommand {
        guard let website = model.author.website, !website.isEmpty else {
            let why = model.isResolvingAuthor ? Toast(tr(.authorLoading)) : Toast(tr(.authorNoPage), kind: .error)
            model.context.effects.show(why)
            return .handled
        }
        return .push(ReaderScreen(model: ReaderViewModel(url: website, effects: model.context.effects)))
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        let collection = model.collection
        let coverWidth = rect.width >= 100 ? 16 : rect.width >= 56 ? 12 : 8
        // The header gives its rows to the grid once the selection leaves the first row.
        let compact = pane.selection.selected >= pane.selection.columns
        let headerHeight = compact ? 1 : rect.height >= 30 ? 7 : 5
        let (header, grid) = rect.rows(.length(headerHeight), .fill)
        if compact {
            let title = "\(collection.name) (\(collection.nfts.count)) · \(model.author.name)"
            buffer.render(Paragraph([Line(title, style: .bold, wraps: false)]), in: header)
            return renderGrid(in: grid, buffer: &buffer)
        }
        let (picture, _, text) = header.columns(.length(coverWidth), .length(2), .fill)
        let (cover, _) = picture.rows(.fill, .length(1))
        buffer.render(
            PictureView(collection.cover, label: collection.name, pictures: model.context.pictures), in: cover)
        let lines = [
            Line("\(collection.name) (\(collection.nfts.count))", style: .bold, wraps: false),
            Line([Span(tr(.collectionAuthor)), .webLink(model.author.name, to: model.author.website)], wraps: false),
            Line(collection.description, style: .dim),
        ]
        buffer.render(Paragraph(lines), in: text)
        renderGrid(in: grid, buffer: &buffer)
    }

    private func renderGrid(in body: Rect, buffer: inout Buffer) {
        if let status = StatusView(model.nfts, what: .nfts, retry: NFTGridKeys.collection.key(for: .retry)) {
            buffer.render(status, in: body)
            return
        }
        pane.renderNFTs(
            in: body, buttons: actions.buttons, state: model.context.state, pictures: model.context.pictures,
            buffer: &buffer)
    }
}
