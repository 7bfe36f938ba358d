import FakeNFTCore
import TerminalUI

/// A collection: cover, name, description, author link, and the grid of its NFTs.
@MainActor
public final class CollectionScreen: Screen {
    enum Action: Sendable { case open, like, cart, author, retry }

    static let keys = KeyMap<Action>([
        KeyBinding([.enter], "Open the NFT", .open),
        KeyBinding([.char("l")], "Like / unlike", .like),
        KeyBinding([.char("c")], "Add to / remove from the cart", .cart),
        KeyBinding([.char("a")], "Open the author's page", .author),
        KeyBinding([.char("r")], "Reload", .retry),
    ])

    let model: CollectionViewModel
    private var grid = GridState()
    private var firstAppearance = FirstAppearance()
    private var gridRect = Rect(x: 0, y: 0, width: 0, height: 0)

    public init(model: CollectionViewModel) { self.model = model }

    public var title: String { model.collection.name }
    public var keyHelp: [HelpEntry] { Self.keys.helpEntries + [HelpEntry(keys: "← → ↑ ↓ j k", text: "Move")] }
    public var hints: [(key: String, label: String)] { [("l", "like"), ("c", "cart"), ("a", "author"), ("Enter", "open")] }
    public var isAnimating: Bool { model.state == .loading }

    public func didAppear() { firstAppearance.load { await self.model.load() } }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        switch event {
        case .key(let key):
            if let action = Self.keys.action(for: key) { return perform(action) }
            return grid.handle(key) ? .handled : .ignored
        case .mouse(let mouse) where mouse.kind == .click:
            guard let index = grid.index(at: mouse.point, in: gridRect, cellSize: NFTCellView.size) else { return .ignored }
            grid.select(index)
            return .handled
        default:
            return .ignored
        }
    }

    private var selectedNFT: NFT? {
        model.state == .loaded && grid.selected < model.nfts.count ? model.nfts[grid.selected] : nil
    }

    private func perform(_ action: Action) -> ScreenCommand {
        switch action {
        case .open:
            guard let nft = selectedNFT else { return .handled }
            return .push(NFTScreen(nft: nft, collectionName: model.collection.name, authorName: model.author.name, context: model.context))
        case .like:
            if let nft = selectedNFT { model.context.toggleLike(nft) }
        case .cart:
            if let nft = selectedNFT { model.context.toggleCart(nft) }
        case .author:
            guard let website = model.author.website, !website.isEmpty else {
                model.context.showToast(Toast("The author has no web page.", kind: .error))
                return .handled
            }
            return .push(ReaderScreen(url: website, context: model.context))
        case .retry:
            Task { await model.load() }
        }
        return .handled
    }

    public func render(in rect: Rect, surface: any Surface) {
        let collection = model.collection
        let coverWidth = rect.width >= 100 ? 16 : 12
        let headerHeight = rect.height >= 30 ? 7 : 5
        PictureView.render(seed: collection.cover, label: collection.name, in: Rect(x: rect.x, y: rect.y, width: coverWidth, height: headerHeight - 1),
                           colors: model.context.colors, surface: surface)
        let textX = rect.x + coverWidth + 2, textWidth = rect.width - coverWidth - 2
        surface.draw("\(collection.name) (\(collection.nfts.count))", at: Point(x: textX, y: rect.y), style: .bold, maxWidth: textWidth)
        let used = surface.draw("Collection author: ", at: Point(x: textX, y: rect.y + 1), style: .plain, maxWidth: textWidth)
        surface.draw(model.author.name, at: Point(x: textX + used, y: rect.y + 1), style: .link, maxWidth: textWidth - used)
        for (i, line) in DisplayWidth.wrap(collection.description, width: textWidth, maxLines: headerHeight - 2).enumerated() {
            surface.draw(line, at: Point(x: textX, y: rect.y + 2 + i), style: .dim, maxWidth: textWidth)
        }
        let body = rect.splitTop(headerHeight).1
        if StatusView.render(model.state, what: "the NFTs", in: body, surface: surface) { return }
        grid.count = model.nfts.count
        gridRect = body
        let nfts = model.nfts
        GridView.render(&grid, in: body, cellSize: NFTCellView.size, surface: surface) { index, cell, selected in
            let nft = nfts[index]
            NFTCellView.render(nft, liked: model.isLiked(nft), inCart: model.isInCart(nft), selected: selected,
                               colors: model.context.colors, in: cell, surface: surface)
        }
    }
}
