import FakeNFTCore
import TerminalUI

/// One NFT of the cart: its ``NFTRowView`` with the spec's remove button (✕) under the price,
/// clicked as the row's place in `area` (none in read-only mode).
@MainActor
struct CartRowView: Widget {
    var row: NFTRowView
    var index: Int
    /// The name the ✕ buttons are clicked by; nil for no button.
    var removeArea: String?

    func render(in rect: Rect, buffer: inout Buffer) {
        buffer.render(row, in: rect)
        guard let removeArea else { return }
        let button = Point(x: min(rect.maxX, rect.x + Format.readableWidth) - 4, y: rect.y + 1)
        buffer.draw("✕", at: button, style: .error, maxWidth: 1)
        buffer.addHit(Rect(x: button.x - 1, y: button.y, width: 3, height: 1), .item(area: removeArea, index: index))
    }
}
