import FakeNFTCore
import TerminalUI

/// One user: photo, name, description, a link to their site and their NFT collection.
@MainActor
public final class UserScreen: Screen {
    enum Row: Int, CaseIterable { case website, collection }

    let user: User
    let context: AppContext
    private var rows = ListState(count: Row.allCases.count)

    public init(user: User, context: AppContext) {
        self.user = user
        self.context = context
    }

    public var title: String { user.name }
    public var keyHelp: [HelpEntry] { [HelpEntry(keys: "↑ ↓", text: "Choose"), HelpEntry(keys: "Enter", text: "Open")] }
    public var hints: [(key: String, label: String)] { [("Enter", "open")] }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        guard case .key(let key) = event else { return .ignored }
        if key == .enter {
            switch Row(rawValue: rows.selected) ?? .website {
            case .website:
                guard !user.website.isEmpty else {
                    context.showToast(Toast("\(user.name) has no website.", kind: .error))
                    return .handled
                }
                return .push(ReaderScreen(url: user.website, context: context))
            case .collection:
                return .push(UserCollectionScreen(model: UserCollectionViewModel(user: user, context: context)))
            }
        }
        return rows.handle(key) ? .handled : .ignored
    }

    public func render(in rect: Rect, surface: any Surface) {
        PictureView.render(seed: user.avatar, label: user.name, in: Rect(x: rect.x, y: rect.y, width: 14, height: 6),
                           colors: context.colors, surface: surface)
        let x = rect.x + 16, width = rect.width - 16
        surface.draw(user.name, at: Point(x: x, y: rect.y), style: .bold, maxWidth: width)
        surface.draw("Rating \(user.rating)", at: Point(x: x, y: rect.y + 1), style: .dim, maxWidth: width)
        let description = (user.description?.isEmpty == false) ? user.description! : "No description."
        for (i, line) in DisplayWidth.wrap(description, width: width, maxLines: 4).enumerated() {
            surface.draw(line, at: Point(x: x, y: rect.y + 3 + i), style: user.description == nil ? .dim : .plain, maxWidth: width)
        }
        let labels = ["Go to the user's website", "NFT collection (\(user.nfts.count))"]
        ListView.render(&rows, in: Rect(x: rect.x, y: rect.y + 8, width: rect.width, height: 4), rowHeight: 2, surface: surface) { index, row, selected in
            SelectionMarker.render(selected, at: Point(x: row.x, y: row.y), surface: surface)
            surface.draw(labels[index], at: Point(x: row.x + 2, y: row.y), style: selected ? .selected : .bold, maxWidth: row.width - 6)
            surface.draw("›", at: Point(x: row.maxX - 2, y: row.y), style: .dim, maxWidth: 1)
        }
    }
}

/// A user's NFTs.
@MainActor
public final class UserCollectionViewModel {
    public private(set) var state: LoadState = .loading
    public private(set) var nfts: [NFT] = []
    let user: User
    let context: AppContext

    public init(user: User, context: AppContext) {
        self.user = user
        self.context = context
    }

    public func load() async {
        do {
            nfts = try await context.listedNFTs(ids: user.nfts)
            state = .loaded
        } catch {
            state = .failed(AppContext.message(for: error))
        }
        context.invalidate()
    }
}

/// A user's collection: the NFT grid with like and cart toggles, as in the Catalog.
@MainActor
public final class UserCollectionScreen: Screen {
    let model: UserCollectionViewModel
    private var grid = GridState()
    private var firstAppearance = FirstAppearance()

    public init(model: UserCollectionViewModel) { self.model = model }

    public var title: String { "NFT collection" }
    public var keyHelp: [HelpEntry] { CollectionScreen.keys.helpEntries.filter { $0.keys != "a" } }
    public var hints: [(key: String, label: String)] { [("l", "like"), ("c", "cart"), ("Enter", "open")] }
    public var isAnimating: Bool { model.state == .loading }

    public func didAppear() { firstAppearance.load { await self.model.load() } }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        guard case .key(let key) = event else { return .ignored }
        let nft = model.state == .loaded && grid.selected < model.nfts.count ? model.nfts[grid.selected] : nil
        switch CollectionScreen.keys.action(for: key) {
        case .like: if let nft { model.context.toggleLike(nft) }
        case .cart: if let nft { model.context.toggleCart(nft) }
        case .open:
            if let nft { return .push(NFTScreen(nft: nft, collectionName: "\(model.user.name)'s collection", authorName: model.user.name, context: model.context)) }
        case .retry: Task { await model.load() }
        case .author, nil: return grid.handle(key) ? .handled : .ignored
        }
        return .handled
    }

    public func render(in rect: Rect, surface: any Surface) {
        if StatusView.render(model.state, what: "the collection", in: rect, surface: surface) { return }
        if model.nfts.isEmpty {
            surface.draw("\(model.user.name) has no NFTs yet.", at: Point(x: rect.x + 1, y: rect.y + 1), style: .dim, maxWidth: rect.width)
            return
        }
        grid.count = model.nfts.count
        let nfts = model.nfts, context = model.context
        GridView.render(&grid, in: rect, cellSize: NFTCellView.size, surface: surface) { index, cell, selected in
            let nft = nfts[index]
            NFTCellView.render(nft, liked: context.likes.contains(nft.id), inCart: context.cart.contains(nft.id), selected: selected,
                               colors: context.colors, in: cell, surface: surface)
        }
    }
}
