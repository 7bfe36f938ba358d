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
    var usage: UsageEvent.Screen { .cart }
    let tasks = TaskBag()
    let model: CartViewModel
    private let pane: ListPane<NFT>
    private var sortMenu = SortMenu(NFTSorting.options)
    /// The removal asked about: one NFT, or the marked ones.
    private var confirm: (dialog: ConfirmDialog, nfts: [NFT])?

    init(model: CartViewModel) {
        self.model = model
        pane = ListPane(area: "list", items: { model.visibleItems }, searchBy: \.name)
        if !model.context.readOnly { pane.markID = { AnyHashable($0.id) } }  // nothing could act on marks
    }

    var isAnimating: Bool { model.cart == nil && model.context.state.cartFailure == nil || model.fetched.isLoading }

    func didAppear() { tasks.once { [model] in await model.follow() } }

    func clearKeptSearch() -> Bool { pane.clearSearch() }

    var layers: [KeyLayer] {
        if let confirm {
            return [
                .dialog(
                    tr(.removeTitle), confirm.dialog,
                    update: { [unowned self] in self.confirm = $0.map { ($0, confirm.nfts) } }
                ) { [unowned self] result in
                    if result == .confirmed {
                        let batch = !pane.marked.isEmpty  // before the removal takes the marked rows away
                        confirm.nfts.forEach(model.remove)
                        if batch {
                            model.context.effects.show(
                                Toast(tr(.batchRemoved, Format.count(confirm.nfts.count, .nfts))))
                        }
                        pane.clearMarks()
                    }
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
        let hasItems = !model.visibleItems.isEmpty  // once per build: the rows are sorted
        return pane.layers(with: [
            .keys(title, Self.keys, readOnly: model.context.readOnly) { [unowned self] in use($0, hasItems: hasItems) },
            KeyLayer(title: title, help: []) { [unowned self] event in  // a row's ✕: remove that row (asks first)
                guard case .pick(Self.removeArea, let index) = event, !model.context.readOnly else { return nil }
                pane.select(index)
                return use(.remove, hasItems: hasItems).command
            },
        ])
    }

    /// What each key does now (`hasItems`: whether rows are shown).
    private func use(_ action: Action, hasItems: Bool) -> KeyUse {
        let empty = KeyUse.refused(tr(.cartEmptyReason))
        switch action {
        case .remove: return hasItems ? .run { [unowned self] in askToRemove() } : empty
        case .sort: return hasItems ? .run { [unowned self] in sortMenu.open(current: model.sort) } : empty
        case .search: return hasItems ? .run { [unowned self] in pane.beginSearch() } : empty
        case .pay:
            if !hasItems { return .refused(tr(.cartEmptyReason)) }
            if model.context.state.freshness == .offline { return .refused(tr(.offlineReason)) }
            return .command { [unowned self] in
                .push(PaymentScreen(model: PaymentViewModel(context: model.context, items: model.visibleItems)))
            }
        case .retry:
            let failed = model.context.state.cartFailure != nil || model.fetched.failure != nil
            return .run(hinted: failed) { [unowned self] in tasks.run { [model] in await model.reload() } }
        case .clearSearch: return pane.search.isActive ? .run { [unowned self] in pane.clearSearch() } : .passes
        }
    }

    /// Asks whether to remove the selected NFT, or the marked ones.
    private func askToRemove() {
        let marked = pane.marked
        guard let nft = pane.selected ?? marked.first else { return }  // the rows shown
        let nfts = marked.isEmpty ? [nft] : marked
        let message =
            marked.isEmpty
            ? tr(.removeQuestion, nft.name)
            : tr(
                .removeMarkedMessage, Format.count(marked.count, .nfts),
                Format.price(marked.map(\.price).filter(\.isFinite).reduce(0, +)))
        confirm = (
            ConfirmDialog(
                title: tr(.removeTitle), message: message, confirmLabel: tr(.delete), cancelLabel: tr(.dialogCancel),
                destructive: true), nfts
        )
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        // Wide: the rows beside the summary; else the summary under them.
        let (side, detail) = DetailPane.split(rect)
        let (body, strip) = side.rows(.fill, .length(detail == nil ? CartSummaryView.stripHeight : 0))
        if let status {
            buffer.render(status, in: body)
            return
        }
        let all = model.visibleItems, query = pane.search.query, pictures = model.context.pictures
        let (header, listArea) = body.rows(.length(2), .fill)
        pane.renderHeader(
            tr(.sorted, sortMenu.name(of: model.sort)), total: all.count, what: .nfts, in: header, buffer: &buffer)
        let removeArea = model.context.readOnly ? nil : Self.removeArea
        pane.render(in: listArea, rowHeight: NFTRowView.height, buffer: &buffer) { nft, index, row, selected, buffer in
            let view = NFTRowView(
                nft: nft, subtitle: nil, selected: selected, marked: self.pane.isMarked(nft), highlight: query,
                pictures: pictures)
            buffer.render(CartRowView(row: view, index: index, removeArea: removeArea), in: row)
        }
        let count =
            model.hiddenCount > 0
            ? tr(.shownOf, Format.count(all.count, .nfts), model.cart?.count ?? 0) : Format.count(all.count, .nfts)
        let summary = CartSummaryView(
            count: count, total: model.total,
            pay: model.context.readOnly
                ? nil
                : (tr(.payButton, Format.price(model.total), Self.keys.keyLabel(for: .pay)), Self.keys.key(for: .pay)),
            placement: detail == nil ? .under : .beside(selected: pane.selected), pictures: pictures)
        buffer.render(summary, in: detail ?? strip)
        buffer.render(sortMenu, in: rect)
        if let confirm {
            let first = confirm.nfts[0]  // the one asked about, or the first marked
            let picture = PictureView(first.images.first ?? "", label: first.name, pictures: pictures)
            buffer.render(
                confirm.dialog.picturing(Size(width: 12, height: 3)) { area, buffer in buffer.render(picture, in: area)
                },
                in: rect)
        }
    }

    /// What the body shows instead of the rows: the cart loading, failing, empty, or its NFTs'
    /// load failing; nil when there are rows.
    private var status: (any Widget)? {
        let retry = Self.keys.key(for: .retry)
        guard let cart = model.cart else {
            guard let failure = model.context.state.cartFailure else { return StatusView.loading(.cart) }
            return StatusView.failure(failure.message, what: .cart, retry: retry)
        }
        if cart.isEmpty { return EmptyStateView(tr(.cartEmpty)) }
        guard model.visibleItems.isEmpty else { return nil }
        return StatusView(model.fetched, what: .cart, retry: retry)
    }
}
