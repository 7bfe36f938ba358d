import Localization
import FakeNFTCore
import Foundation
import TerminalUI

/// The cart: NFTs with picture, rating and price; removal through a confirmation; sort; total and Pay.
@MainActor
final class CartScreen: Screen {
    enum Action: Sendable { case remove, sort, pay, retry, search, clearSearch }

    static var keys: KeyMap<Action> {
        KeyMap(
            "cart",
            [
                KeyBinding(
                    [.char("d"), .delete], tr(.removeFromCart), hint: tr(.hintRemove), changesData: true, .remove),
                KeyBinding([.char("s")], tr(.sortItems), hint: tr(.hintSort), .sort),
                KeyBinding([.char("p"), .enter], tr(.pay), hint: tr(.hintPay), changesData: true, .pay),
                KeyBinding([.char("r")], tr(.reload), hint: tr(.hintRetry), .retry),
            ] + ListSearch.bindings(search: .search, clear: .clearSearch))
    }

    /// The name the rows' ✕ buttons are clicked by.
    static let removeArea = "remove"

    var title: String { tr(.tabCart) }
    let tasks = TaskBag()
    let model: CartViewModel
    private let pane: ListPane<NFT>
    private var sortMenu = SortMenu(NFTSorting.options)
    private var confirm: (dialog: ConfirmDialog, nft: NFT)?

    init(model: CartViewModel) {
        self.model = model
        pane = ListPane(area: "list", items: { model.visibleItems }, searchBy: \.name)
    }

    var isAnimating: Bool { model.cart == nil && model.context.state.cartFailure == nil || model.fetched.isLoading }

    func didAppear() { tasks.once { [model] in await model.follow() } }

    var layers: [KeyLayer] {
        if let confirm {
            return [
                .dialog(
                    tr(.removeTitle), confirm.dialog,
                    update: { [unowned self] in self.confirm = $0.map { ($0, confirm.nft) } }
                ) { [unowned self] result in
                    if result == .confirmed { model.remove(confirm.nft) }
                    return .handled
                }
            ]
        }
        if let menu = sortMenu.layer(
            update: { [unowned self] in sortMenu = $0 },
            chosen: { [unowned self] sort in pane.keepSelection { model.setSort(sort) } })
        {
            return [menu]
        }
        // once per route or frame: the rows are sorted
        let hasItems = !model.visibleItems.isEmpty, searching = pane.search.isActive
        return pane.layers(with: [
            .keys(
                title, Self.keys, enabled: { $0 == .retry || ($0 == .clearSearch ? searching : hasItems) },
                hinted: { [unowned self] in
                    $0 != .retry || model.context.state.cartFailure != nil || model.fetched.failure != nil
                }
            ) { [unowned self] in
                perform($0)
            },
            KeyLayer(title: title, help: []) { [unowned self] event in  // a row's ✕: remove that row (asks first)
                guard case .pick(Self.removeArea, let index) = event, !ReadOnlyMode.isOn else { return nil }
                pane.select(index)
                return perform(.remove)
            },
        ])
    }

    private func perform(_ action: Action) -> ScreenCommand {
        switch action {
        case .remove:
            guard let nft = pane.selected else { return .handled }  // the rows shown: the cart's, or the search's
            confirm = (
                ConfirmDialog(
                    title: tr(.removeTitle), message: tr(.removeQuestion, nft.name),
                    confirmLabel: tr(.delete), cancelLabel: tr(.dialogCancel), destructive: true), nft
            )
        case .sort:
            sortMenu.open(current: model.sort)
        case .pay:
            return .push(PaymentScreen(model: PaymentViewModel(context: model.context, items: model.visibleItems)))
        case .retry:
            tasks.run { [model] in await model.reload() }
        case .search: pane.beginSearch()
        case .clearSearch: pane.clearSearch()
        }
        return .handled
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        // Wide: the rows beside a summary pane (count, total, Pay, the selected NFT); else the summary under them.
        let (side, detail) = DetailPane.split(rect)
        let (body, panel) = side.rows(.fill, .length(detail == nil ? 3 : 0))
        guard let cart = model.cart else {
            if let failure = model.context.state.cartFailure {
                buffer.render(
                    StatusView.failure(failure.message, what: .cart, retry: Self.keys.key(for: .retry)), in: body)
            } else {
                buffer.render(StatusView.loading(.cart), in: body)
            }
            return
        }
        if cart.isEmpty {
            buffer.render(EmptyStateView(tr(.cartEmpty)), in: body)
            return
        }
        let all = model.visibleItems
        if all.isEmpty,
            let status = StatusView(model.fetched, what: .cart, retry: Self.keys.key(for: .retry))
        {
            buffer.render(status, in: body)
            return
        }
        let query = pane.search.query
        let (header, listArea) = body.rows(.length(2), .fill)
        pane.renderHeader(
            tr(.sorted, sortMenu.name(of: model.sort)), total: all.count, what: .nfts, in: header, buffer: &buffer)
        let pictures = model.context.pictures
        pane.render(in: listArea, rowHeight: NFTRowView.height, buffer: &buffer) { nft, index, row, selected, buffer in
            buffer.render(
                NFTRowView(nft: nft, subtitle: nil, selected: selected, highlight: query, pictures: pictures), in: row)
            // The spec's remove button on every row, under the price.
            guard !ReadOnlyMode.isOn else { return }
            let button = Point(x: min(row.maxX, row.x + Format.readableWidth) - 4, y: row.y + 1)
            buffer.draw("✕", at: button, style: .error, maxWidth: 1)
            buffer.addHit(
                Rect(x: button.x - 1, y: button.y, width: 3, height: 1), .item(area: Self.removeArea, index: index))
        }
        // The summary: count, total and the Pay button, all from the rows shown.
        let count =
            model.hiddenCount > 0
            ? tr(.shownOf, Format.count(all.count, .nfts), cart.count) : Format.count(all.count, .nfts)
        let pay = tr(.payButton, Format.price(model.total), Self.keys.keyLabel(for: .pay))
        if let detail {
            let inside = DetailPane.frame(detail, title: tr(.cartSummary), buffer: &buffer)
            buffer.draw(count, at: Point(x: inside.x, y: inside.y), style: .plain, maxWidth: inside.width)
            buffer.draw(
                Format.price(model.total), at: Point(x: inside.x, y: inside.y + 1), style: .success,
                maxWidth: inside.width)
            if !ReadOnlyMode.isOn {
                buffer.button(
                    pay, at: Point(x: inside.x, y: inside.y + 3), style: .selected, maxWidth: inside.width,
                    key: Self.keys.key(for: .pay))
            }
            if let nft = pane.selected {
                let (_, below) = inside.rows(.length(5), .fill)
                let used = DetailPane.picture(
                    nft.images.first ?? "", label: nft.name, in: below, rows: min(12, below.height / 2),
                    pictures: pictures, buffer: &buffer)
                buffer.draw(nft.name, at: Point(x: below.x, y: below.y + used + 1), style: .bold, maxWidth: below.width)
                buffer.draw(
                    Format.price(nft.price), at: Point(x: below.x, y: below.y + used + 2), style: .plain,
                    maxWidth: below.width)
            }
        } else {
            buffer.draw(
                String(repeating: "─", count: panel.width), at: Point(x: panel.x, y: panel.y), style: .dim,
                maxWidth: panel.width)
            buffer.draw(count, at: Point(x: panel.x + 1, y: panel.y + 1), style: .plain, maxWidth: panel.width)
            buffer.draw(
                Format.price(model.total), at: Point(x: panel.x + 1, y: panel.y + 2), style: .success,
                maxWidth: panel.width)
            if !ReadOnlyMode.isOn {
                buffer.button(
                    pay, at: Point(x: panel.maxX - DisplayWidth.of(pay) - 1, y: panel.y + 1), style: .selected,
                    maxWidth: panel.width, key: Self.keys.key(for: .pay))
            }
        }
        buffer.render(sortMenu, in: rect)
        if let confirm {
            let picture = PictureView(confirm.nft.images.first ?? "", label: confirm.nft.name, pictures: pictures)
            buffer.render(
                confirm.dialog.picturing(Size(width: 12, height: 3)) { area, buffer in buffer.render(picture, in: area)
                },
                in: rect)
        }
    }
}
