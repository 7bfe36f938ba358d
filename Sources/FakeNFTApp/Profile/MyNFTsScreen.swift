import FakeNFTCore
import TerminalUI

/// The NFTs the user owns, and their authors' names.
@MainActor
public final class MyNFTsViewModel {
    public private(set) var state: LoadState = .loading
    public private(set) var items: [NFT] = []
    public private(set) var authorNames: [String: String] = [:]
    let context: AppContext

    public init(context: AppContext) { self.context = context }

    public var sort: SortPreferences.Items { context.sort.myNFTs }

    public func load() async {
        let ids = context.profileValue?.nfts ?? []
        do {
            items = CartViewModel.sorted(try await context.listedNFTs(ids: ids), by: sort)
            state = .loaded
        } catch {
            state = .failed(AppContext.message(for: error))
        }
        context.invalidate()
        // gen1 authors are user ids: fetch their names together and show them in one frame.
        let users = context.users
        authorNames = await withTaskGroup(of: (String, String?).self) { group in
            for author in Set(items.map(\.author)) where Int(author) != nil {
                group.addTask { (author, try? await users.user(id: author).name) }
            }
            var names: [String: String] = [:]
            for await (author, name) in group { names[author] = name }
            return names
        }
        context.invalidate()
    }

    public func author(of nft: NFT) -> String {
        authorNames[nft.author] ?? CollectionViewModel.author(from: nft.author, website: nil).name
    }

    public func setSort(_ sort: SortPreferences.Items) {
        context.updateSort { $0.myNFTs = sort }
        items = CartViewModel.sorted(items, by: sort)
    }
}

/// My NFTs: picture, name, "by <author>" and price; `s` sorts.
@MainActor
public final class MyNFTsScreen: Screen {
    static let keys = KeyMap<Bool>([KeyBinding([.char("s")], "Sort (by price, rating, name)", true)])

    public let title = "My NFTs"
    let model: MyNFTsViewModel
    private var list = ListState()
    private var sortMenu = SortMenu(CartScreen.sortOptions)
    private var firstAppearance = FirstAppearance()

    public init(model: MyNFTsViewModel) { self.model = model }

    public var keyHelp: [HelpEntry] { Self.keys.helpEntries + [HelpEntry(keys: "↑ ↓ j k PgUp PgDn", text: "Move")] }
    public var hints: [(key: String, label: String)] { [("s", "sort")] }
    public var isAnimating: Bool { model.state == .loading }

    public func didAppear() { firstAppearance.load { await self.model.load() } }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        guard case .key(let key) = event else { return .ignored }
        if sortMenu.isOpen {
            if let sort = sortMenu.handle(key) { model.setSort(sort) }
            return .handled
        }
        if Self.keys.action(for: key) != nil {
            sortMenu.open(current: model.sort)
            return .handled
        }
        return list.handle(key) ? .handled : .ignored
    }

    public func render(in rect: Rect, surface: any Surface) {
        if StatusView.render(model.state, what: "your NFTs", in: rect, surface: surface) { return }
        let items = model.items
        if items.isEmpty {
            EmptyStateView.render("You have no NFTs yet", in: rect, surface: surface)
            return
        }
        surface.draw("\(items.count) NFTs, sorted \(sortMenu.name(of: model.sort))", at: Point(x: rect.x, y: rect.y), style: .dim, maxWidth: rect.width)
        list.count = items.count
        let colors = model.context.colors
        ListView.render(&list, in: rect.splitTop(2).1, rowHeight: NFTRowView.height, surface: surface) { index, row, selected in
            let nft = items[index]
            NFTRowView.render(nft, subtitle: "by \(model.author(of: nft))", selected: selected, colors: colors, in: row, surface: surface)
        }
        sortMenu.render(in: rect, surface: surface)
    }
}
