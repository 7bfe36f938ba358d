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
            items = CartViewModel.sorted(try await context.catalog.nfts(ids: ids), by: sort)
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
    private var sortSheet: ActionSheet?
    private var loaded = false

    public init(model: MyNFTsViewModel) { self.model = model }

    public var keyHelp: [HelpEntry] { Self.keys.helpEntries + [HelpEntry(keys: "↑ ↓ j k PgUp PgDn", text: "Move")] }
    public var hints: [(key: String, label: String)] { [("s", "sort")] }
    public var isAnimating: Bool { model.state == .loading }

    public func didAppear() {
        guard !loaded else { return }
        loaded = true
        Task { await model.load() }
    }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        guard case .key(let key) = event else { return .ignored }
        if var sheet = sortSheet {
            let result = sheet.handle(key)
            sortSheet = result == nil ? sheet : nil
            if case .chosen(let index) = result { model.setSort(CartScreen.sortOptions[index].1) }
            return .handled
        }
        if Self.keys.action(for: key) != nil {
            sortSheet = ActionSheet(title: "Sort", options: CartScreen.sortOptions.map(\.0),
                                    current: CartScreen.sortOptions.firstIndex { $0.1 == model.sort })
            return .handled
        }
        return list.handle(key) ? .handled : .ignored
    }

    public func render(in rect: Rect, surface: any Surface) {
        if StatusView.render(model.state, what: "your NFTs", in: rect, surface: surface) { return }
        let items = model.items
        if items.isEmpty {
            let text = "You have no NFTs yet"
            surface.draw(text, at: Point(x: rect.x + (rect.width - DisplayWidth.of(text)) / 2, y: rect.y + rect.height / 2), style: .bold, maxWidth: rect.width)
            return
        }
        let sortName = CartScreen.sortOptions.first { $0.1 == model.sort }?.0.lowercased() ?? ""
        surface.draw("\(items.count) NFTs, sorted \(sortName)", at: Point(x: rect.x, y: rect.y), style: .dim, maxWidth: rect.width)
        list.count = items.count
        let colors = model.context.colors
        ListView.render(&list, in: rect.splitTop(2).1, rowHeight: 3, surface: surface) { index, row, selected in
            let nft = items[index]
            if selected {
                surface.draw("▌", at: Point(x: row.x, y: row.y), style: .accent, maxWidth: 1)
                surface.draw("▌", at: Point(x: row.x, y: row.y + 1), style: .accent, maxWidth: 1)
            }
            PictureView.render(seed: nft.images.first ?? nft.id, label: nft.name, in: Rect(x: row.x + 2, y: row.y, width: 6, height: 2),
                               colors: colors, surface: surface)
            let used = surface.draw(nft.name, at: Point(x: row.x + 10, y: row.y), style: selected ? .selected : .bold, maxWidth: row.width - 26)
            surface.draw(" " + Format.stars(nft.rating), at: Point(x: row.x + 10 + used, y: row.y), style: Style(foreground: .yellow), maxWidth: 6)
            surface.draw("by \(model.author(of: nft))", at: Point(x: row.x + 10, y: row.y + 1), style: .dim, maxWidth: row.width - 26)
            let price = Format.price(nft.price)
            surface.draw(price, at: Point(x: row.maxX - DisplayWidth.of(price) - 1, y: row.y), style: .plain, maxWidth: 14)
        }
        if var sheet = sortSheet { sheet.render(in: rect, surface: surface); sortSheet = sheet }
    }
}
