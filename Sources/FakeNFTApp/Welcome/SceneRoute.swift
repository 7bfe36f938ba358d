import Localization
import TerminalUI

/// The keys every scene before the tabs has besides its own: the help and quit.
enum SceneKeys {
    enum Action: Sendable { case help, quit }

    static var map: KeyMap<Action> {
        KeyMap(
            "scene",
            [
                KeyBinding([.function(1), .char("?")], tr(.help), hint: tr(.hintHelp), hintKeys: "F1", .help),
                KeyBinding([.ctrl("c")], tr(.quit), hint: tr(.hintQuit), .quit),
            ])
    }
}

/// How events reach a scene before the tabs, the same way they reach the tabs' screens: a click
/// is resolved against the last frame's clickable parts, then the scene's layers are offered the
/// event top first, with the last frame; ``SceneKeys`` last (F1 or an unused `?` opens the help
/// generated from the layers, Ctrl-C quits). The footer is the layers' hints.
@MainActor
final class SceneRoute {
    private let help = HelpPanel()
    /// What the last frame drew.
    private var lastFrame = DrawnFrame()

    /// Routes `event` through `layers`; `elsewhere` gets a click on nothing drawn there. False
    /// to quit.
    func handle(_ event: TerminalEvent, through layers: [KeyLayer], elsewhere: () -> Void = {}) -> Bool {
        if case .key(.ctrl("c")) = event { return false }
        if help.isShown {
            _ = help.layer.route(event, lastFrame)
            return true
        }
        if case .mouse(let mouse) = event, mouse.kind == .click {
            switch lastFrame.target(at: mouse.point) {
            case .key(let key): return handle(.key(key), through: layers, elsewhere: elsewhere)
            case .item(let area, let index), .itemButton(let area, let index, _):
                _ = KeyLayer.route(.pick(area: area, index: index), through: layers, after: lastFrame)
            case nil: elsewhere()
            }
            return true
        }
        if KeyLayer.route(event, through: layers, after: lastFrame) != nil { return true }
        guard case .key(let key) = event, let action = SceneKeys.map.action(for: key) else { return true }
        switch action {
        case .help: help.open()
        case .quit: return false
        }
        return true
    }

    /// Draws the footer (the layers' hints, then help and quit) on the last row and the help when
    /// it is open.
    func finish(_ buffer: inout Buffer, title: String, layers: [KeyLayer]) {
        let size = buffer.size
        let own = SceneKeys.map.hints()
        let (_, footer) = Rect(size: size).rows(.fill, .length(1))
        buffer.render(KeyHintBar(layers.flatMap(\.hints) + own, keepingLast: own.count), in: footer)
        help.render(
            title: title, layers: layers, everywhere: SceneKeys.map.helpEntries, in: Rect(size: size), buffer: &buffer)
    }

    /// Keeps what the frame on screen drew, for the next events.
    func shown(_ frame: Buffer) { lastFrame = DrawnFrame(frame) }
}
