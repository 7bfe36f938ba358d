import FakeNFTCore
import Localization
import TerminalUI

/// One paid order: when and with what it was paid, each NFT at its price then, and the total;
/// Enter opens an NFT.
@MainActor
final class OrderScreen: Screen {
    enum Action: Sendable { case open }
    static var keys: KeyMap<Action> {
        KeyMap("order", [KeyBinding([.enter], tr(.openNFT), hint: tr(.hintOpen), .open)])
    }

    var title: String { tr(.orderTitle, Format.time(model.order.paidAt)) }
    var usage: UsageEvent.Screen { .order }
    let tasks = TaskBag()
    let model: OrderViewModel
    private let pane: ListPane<NFT>

    init(model: OrderViewModel) {
        self.model = model
        pane = ListPane(area: "order") { model.items }
    }

    var isAnimating: Bool { model.catalog.isLoading }

    func didAppear() { tasks.once { [model] in await model.load() } }

    var layers: [KeyLayer] {
        pane.layers(with: [
            .keys(title, Self.keys, readOnly: model.context.readOnly) { [unowned self] _ in
                guard let nft = selectedNFT else { return .passes }
                return .command { [model] in .push(NFTScreen(model: NFTViewModel(nft: nft, context: model.context))) }
            }
        ])
    }

    /// The selected NFT as the catalog has it (with its price now), once read.
    private var selectedNFT: NFT? { pane.selected.flatMap { model.catalog.value?[$0.id] } }

    func render(in rect: Rect, buffer: inout Buffer) {
        let order = model.order
        // the total right under the NFTs, or at the bottom when they fill the screen
        let (header, body) = rect.rows(.length(4), .fill)
        let listHeight = min(max(0, body.height - 2), order.items.count * NFTRowView.height)
        let (list, footer, _) = body.rows(.length(listHeight), .length(2), .fill)
        let heading = [
            Line(Format.time(order.paidAt), style: .bold, wraps: false),
            Line(tr(.orderSummary, Format.count(order.items.count, .nfts), order.currencyName), wraps: false),
            Line(tr(.orderPriceThen), style: .dim, wraps: false),
        ]
        buffer.render(Paragraph(heading), in: header)
        let pictures = model.context.pictures
        pane.render(in: list, rowHeight: NFTRowView.height, buffer: &buffer) { nft, _, row, selected, buffer in
            buffer.render(NFTRowView(nft: nft, subtitle: nil, selected: selected, pictures: pictures), in: row)
        }
        var why = Line.blank
        if case .failed(let failure) = model.catalog {
            why = Line(tr(.failedNFTs) + " " + failure.message, style: .error, wraps: false)
        }
        let total = Line(tr(.orderTotal, Format.price(order.total)), style: .bold, wraps: false)
        buffer.render(Paragraph([why, total]), in: footer)
    }
}
