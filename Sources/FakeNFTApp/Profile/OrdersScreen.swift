import FakeNFTCore
import Localization
import TerminalUI

/// My orders: each paid order with when, how many NFTs, its total and the currency; Enter opens it.
@MainActor
final class OrdersScreen: Screen {
    enum Action: Sendable { case open, retry }
    static var keys: KeyMap<Action> {
        KeyMap(
            "my-orders",
            [
                KeyBinding([.enter], tr(.openOrder), hint: tr(.hintOpen), .open),
                KeyBinding([.char("r")], tr(.reload), hint: tr(.hintRetry), .retry),
            ])
    }

    var title: String { tr(.myOrders) }
    var usage: UsageEvent.Screen { .orders }
    let tasks = TaskBag()
    let model: OrdersViewModel
    private let pane: ListPane<PaidOrder>

    init(model: OrdersViewModel) {
        self.model = model
        pane = ListPane(area: "orders") { model.orders.value ?? [] }
    }

    var isAnimating: Bool { model.orders.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] {
        pane.layers(with: [
            .keys(title, Self.keys, readOnly: model.context.readOnly) { [unowned self] action in
                switch action {
                case .retry:
                    return .run(hinted: model.orders.failure != nil) { [unowned self] in
                        tasks.run { [model] in await model.load() }
                    }
                case .open:
                    guard let order = pane.selected else { return .passes }
                    return .command { [model] in
                        .push(OrderScreen(model: OrderViewModel(order: order, context: model.context)))
                    }
                }
            }
        ])
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        if let status = StatusView(model.orders, what: .orders, retry: Self.keys.key(for: .retry)) {
            buffer.render(status, in: rect)
            return
        }
        let orders = model.orders.value ?? []
        if orders.isEmpty {
            buffer.render(EmptyStateView(tr(model.notKept ? .ordersNotKept : .noOrdersYet)), in: rect)
            return
        }
        let (header, list) = rect.rows(.length(2), .fill)
        buffer.draw(
            tr(.ordersListed, Format.count(orders.count, .orders)), at: Point(x: header.x, y: header.y), style: .dim,
            maxWidth: header.width)
        pane.render(in: list, rowHeight: 3, buffer: &buffer) { order, _, row, selected, buffer in
            buffer.render(OrderRowView(order: order, selected: selected), in: row)
        }
    }
}

/// One paid order in the list: when and its total on the first line, what and how on the second.
@MainActor
struct OrderRowView: Widget {
    var order: PaidOrder
    var selected: Bool

    func render(in full: Rect, buffer: inout Buffer) {
        let (lines, _) = Format.readable(full).rows(.length(2), .fill)
        let (marker, text) = lines.columns(.length(2), .fill)
        buffer.render(SelectionMarker(selected: selected), in: marker)
        let total = Format.price(order.total)
        let totalWidth = DisplayWidth.of(total)
        buffer.draw(
            total, at: Point(x: text.maxX - totalWidth - 1, y: text.y), style: .plain, maxWidth: text.width)
        buffer.draw(
            Format.time(order.paidAt), at: Point(x: text.x, y: text.y), style: selected ? .selected : .bold,
            maxWidth: text.width - totalWidth - 2)
        buffer.draw(
            tr(.orderSummary, Format.count(order.items.count, .nfts), order.currencyName),
            at: Point(x: text.x, y: text.y + 1), style: .dim, maxWidth: text.width - 1)
    }
}
