import Localization
import TerminalUI

/// The `?`/F1 help over what is shown (the tabs, or a welcome scene): the keys of the layers
/// active under it, generated from them, in an overlay its own keys scroll and close.
@MainActor
final class HelpPanel {
    private(set) var isShown = false
    /// Lines scrolled past: as the last frame drew them, then moved by the keys.
    private var scroll = ScrollPosition()

    init() { _ = WidgetWords.given }  // the overlay's own words

    func open() {
        isShown = true
        scroll = ScrollPosition()
    }

    /// The overlay's layer, modal: its keys scroll or close it, a click closes it, nothing else
    /// reaches what is under it.
    var layer: KeyLayer {
        KeyLayer(title: tr(.help), help: HelpOverlay.keys.helpEntries, isModal: true) { [unowned self] event, frame in
            switch event {
            case .key(let key):
                guard let action = HelpOverlay.keys.action(for: key) else { break }
                guard let lines = action.lines else {
                    isShown = false
                    break
                }
                scroll.follow(frame.panes[HelpOverlay.area])
                scroll.scroll(by: lines)
            case .mouse(let mouse) where mouse.kind == .click: isShown = false
            default: break
            }
            return .handled
        }
    }

    /// Draws the overlay over `area` but its last row, the footer, which then says the overlay's
    /// own keys: `title`'s keys (the layers under it, down to the first modal one) and those that
    /// work `everywhere`.
    func render(
        title: String, layers: [KeyLayer], everywhere: [HelpEntry], in area: Rect, buffer: inout Buffer
    ) {
        guard isShown else { return }
        buffer.cursor = nil
        let modal = layers.last?.isModal == true
        let heading = modal ? layers.last?.title ?? title : title
        let own = modal ? layers.last?.help ?? [] : layers.flatMap(\.help)
        let overlay = HelpOverlay(
            title: tr(.helpTitle, heading), sections: [(heading, own), (tr(.helpEverywhere), everywhere)],
            scroll: scroll.first)
        let (above, footer) = area.rows(.fill, .length(1))
        buffer.render(overlay, in: above)
        buffer.render(KeyHintBar(HelpOverlay.hints), in: footer)
    }
}
