import FakeNFTCore
import Foundation
import TerminalUI

/// The cart: NFTs with picture, rating and price; removal through a confirmation; sort; total and Pay.
@MainActor
public final class CartScreen: Screen {
    enum Action: Sendable { case remove, sort, pay, retry }

    static let keys = KeyMap<Action>([
        KeyBinding([.char("d"), .delete], "Remove from the cart (asks first)", .remove),
        KeyBinding([.char("s")], "Sort (by price, rating, name)", .sort),
        KeyBinding([.char("p"), .enter], "Pay", .pay),
        KeyBinding([.char("r")], "Reload", .retry),
    ])
    static let sortOptions: [(label: String, value: SortPreferences.Items)] = [("By price", .price), ("By rating", .rating), ("By name", .name)]

    public let title = "Cart"
    let model: CartViewModel
    private var list = ListState()
    private var sortMenu = SortMenu(CartScreen.sortOptions)
    private var confirm: (dialog: ConfirmDialog, nft: NFT)?
    private var listRect = Rect(x: 0, y: 0, width: 0, height: 0)

    public init(model: CartViewModel) { self.model = model }

    public var keyHelp: [HelpEntry] {
        if confirm != nil { return ConfirmDialog.keyHelp }
        return Self.keys.helpEntries + [HelpEntry(keys: "↑ ↓ j k PgUp PgDn", text: "Move")]
    }
    public var hints: [(key: String, label: String)] {
        confirm != nil ? [("←→", "choose"), ("Enter", "press"), ("Esc", "cancel")] : [("d", "remove"), ("s", "sort"), ("p", "pay")]
    }
    public var isAnimating: Bool { model.state == .loading }

    public func didAppear() { Task { await model.refresh() } }

    public func handle(_ event: TerminalEvent) -> ScreenCommand {
        guard case .key(let key) = event else {
            if case .mouse(let mouse) = event { return list.handle(mouse, in: listRect) ? .handled : .ignored }
            return .ignored
        }
        if var pending = confirm {
            let result = pending.dialog.handle(key)
            confirm = result == nil ? pending : nil
            if result == .confirmed { model.remove(pending.nft) }
            return .handled
        }
        if sortMenu.isOpen {
            if let sort = sortMenu.handle(key) { model.setSort(sort) }
            return .handled
        }
        if let action = Self.keys.action(for: key) { return perform(action) }
        return list.handle(key) ? .handled : .ignored
    }

    private func perform(_ action: Action) -> ScreenCommand {
        let items = model.visibleItems
        switch action {
        case .remove:
            guard list.selected < items.count else { return .handled }
            confirm = (ConfirmDialog(title: "Remove", message: "Are you sure you want to remove this item from the cart?",
                                     confirmLabel: "Delete", cancelLabel: "Cancel", destructive: true), items[list.selected])
        case .sort:
            sortMenu.open(current: model.sort)
        case .pay:
            guard !items.isEmpty else { return .handled }
            return .push(PaymentScreen(model: PaymentViewModel(context: model.context)))
        case .retry:
            Task { await model.refresh(force: true) }
        }
        return .handled
    }

    public func render(in rect: Rect, surface: any Surface) {
        let (body, panel) = rect.splitBottom(3)
        let items = model.visibleItems
        if model.context.cart.isEmpty {
            EmptyStateView.render("Cart is empty", in: body, surface: surface)
            return
        }
        if items.isEmpty, StatusView.render(model.state, what: "the cart", in: body, surface: surface) { return }
        surface.draw("Sorted \(sortMenu.name(of: model.sort))", at: Point(x: body.x, y: body.y), style: .dim, maxWidth: body.width)
        let listArea = body.splitTop(2).1
        list.count = items.count
        listRect = listArea
        let colors = model.context.colors
        ListView.render(&list, in: listArea, rowHeight: NFTRowView.height, surface: surface) { index, row, selected in
            NFTRowView.render(items[index], subtitle: nil, selected: selected, colors: colors, in: row, surface: surface)
        }
        // Bottom panel: count, total and the Pay button.
        surface.draw(String(repeating: "─", count: panel.width), at: Point(x: panel.x, y: panel.y), style: .dim, maxWidth: panel.width)
        let count = model.hiddenCount > 0 ? "\(items.count) NFT shown of \(model.context.cart.count)" : "\(items.count) NFT"
        surface.draw(count, at: Point(x: panel.x + 1, y: panel.y + 1), style: .plain, maxWidth: panel.width)
        surface.draw(Format.price(model.total), at: Point(x: panel.x + 1, y: panel.y + 2), style: .success, maxWidth: panel.width)
        let pay = "[  Pay (p)  ]"
        surface.draw(pay, at: Point(x: panel.maxX - DisplayWidth.of(pay) - 1, y: panel.y + 1), style: .selected, maxWidth: panel.width)
        sortMenu.render(in: rect, surface: surface)
        if let confirm {
            confirm.dialog.render(in: rect, surface: surface, pictureSize: Size(width: 12, height: 3)) { area in
                PictureView.render(seed: confirm.nft.images.first ?? confirm.nft.id, label: confirm.nft.name, in: area,
                                   colors: colors, surface: surface)
            }
        }
    }
}
