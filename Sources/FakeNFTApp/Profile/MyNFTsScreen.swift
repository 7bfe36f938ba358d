import FakeNFTCore
import TerminalUI

/// My NFTs: picture, name, "by <author>" and price; `s` sorts.
@MainActor
final class MyNFTsScreen: Screen {
    enum Action: Sendable { case sort, open }
    static let keys = KeyMap<Action>([
        KeyBinding([.char("s")], "Sort (by price, rating, name)", hint: "sort", .sort),
        KeyBinding([.enter], "Open the NFT", hint: "open", .open),
    ])

    let title = "My NFTs"
    let tasks = TaskBag()
    let model: MyNFTsViewModel
    private var list = ListState()
    private var listRect = Rect(x: 0, y: 0, width: 0, height: 0)
    private var sortMenu = SortMenu(NFTSorting.options)

    init(model: MyNFTsViewModel) { self.model = model }

    var isAnimating: Bool { model.owned.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] {
        if let menu = sortMenu.layer(update: { [unowned self] in sortMenu = $0 }, chosen: { [unowned self] in model.setSort($0) }) {
            return [menu]
        }
        return [
            .keys("My NFTs", Self.keys, enabled: { [model] _ in model.owned.value?.isEmpty == false }) { [unowned self] action in
                let items = model.items
                switch action {
                case .sort: sortMenu.open(current: model.sort)
                case .open:
                    guard list.selected < items.count else { return .handled }
                    return .push(NFTScreen(model: NFTViewModel(nft: items[list.selected], context: model.context)))
                }
                return .handled
            },
            .list(list, area: "list", in: listRect) { [unowned self] in list = $0 },
        ]
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        if StatusView.render(model.owned, what: "your NFTs", in: rect, buffer: &buffer) { return }
        let items = model.items
        if items.isEmpty {
            EmptyStateView.render("You have no NFTs yet", in: rect, buffer: &buffer)
            return
        }
        buffer.draw("\(Format.count(items.count, "NFT")), sorted \(sortMenu.name(of: model.sort))", at: Point(x: rect.x, y: rect.y), style: .dim, maxWidth: rect.width)
        list.count = items.count
        listRect = rect.splitTop(2).1
        let pictures = model.context.pictures
        ListView(area: "list", rowHeight: NFTRowView.height) { [model] index, row, selected, buffer in
            let nft = items[index]
            NFTRowView.render(nft, subtitle: "by \(model.author(of: nft))", selected: selected, pictures: pictures, in: row, buffer: &buffer)
        }.render(in: listRect, buffer: &buffer, state: &list)
        sortMenu.render(in: rect, buffer: &buffer)
    }
}
