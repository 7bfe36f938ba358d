import FakeNFTCore
import Localization
import TerminalUI

/// The cart's summary, from the rows shown: how many, their total and the Pay button (none in
/// read-only mode). Beside the list on a wide terminal, with the selected NFT under it; else a
/// strip of three rows under the list, Pay at its right end.
@MainActor
struct CartSummaryView: Widget {
    enum Placement {
        /// A pane of its own, showing `selected` under the figures.
        case beside(selected: NFT?)
        case under
    }

    /// The strip's rows under the list.
    static let stripHeight = 3

    var count: String
    var total: Double
    /// Pay's label (with the amount) and its key; nil when paying is off.
    var pay: (label: String, key: Key?)?
    var placement: Placement
    var pictures: Pictures

    func render(in rect: Rect, buffer: inout Buffer) {
        switch placement {
        case .beside(let selected): renderPane(rect, selected: selected, buffer: &buffer)
        case .under: renderStrip(rect, buffer: &buffer)
        }
    }

    private var totalLabel: Label { Label(Format.price(total), style: .success) }

    private func renderPane(_ rect: Rect, selected: NFT?, buffer: inout Buffer) {
        let inside = DetailPane.frame(rect, title: tr(.cartSummary), buffer: &buffer)
        let (figures, below) = inside.rows(.length(5), .fill)
        let (countRow, totalRow, payRow) = figures.rows(.length(1), .length(2), .length(1))
        buffer.render(Label(count), in: countRow)
        buffer.render(totalLabel, in: totalRow)
        if let pay { buffer.render(Button(pay.label, style: .selected, key: pay.key), in: payRow) }
        guard let nft = selected else { return }
        let used = DetailPane.picture(
            nft.images.first ?? "", label: nft.name, in: below, rows: min(12, below.height / 2),
            pictures: pictures, buffer: &buffer)
        let (_, name, price) = below.rows(.length(used + 1), .length(1), .length(1))
        buffer.render(Label(nft.name, style: .bold), in: name)
        buffer.render(Label(Format.price(nft.price)), in: price)
    }

    private func renderStrip(_ rect: Rect, buffer: inout Buffer) {
        let (rule, countRow, totalRow) = rect.rows(.length(1), .length(1), .length(1))
        buffer.render(Label(String(repeating: "─", count: rect.width), style: .dim), in: rule)
        let (_, figures) = countRow.columns(.length(1), .fill)
        buffer.render(Label(count), in: figures)
        buffer.render(totalLabel, in: totalRow.columns(.length(1), .fill).1)
        guard let pay else { return }
        let width = min(DisplayWidth.of(pay.label), rect.width)
        let (_, button, _) = countRow.columns(.fill, .length(width), .length(1))
        buffer.render(Button(pay.label, style: .selected, key: pay.key), in: button)
    }
}
