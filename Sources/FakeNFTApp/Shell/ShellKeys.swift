import Localization
import TerminalUI

/// Keys that work everywhere unless the screen in focus uses them first.
enum ShellAction: Sendable, Hashable {
    case selectTab(Int)
    case nextTab, previousTab
    case back
    case help
    case quit
}

enum ShellKeys {
    static var map: KeyMap<ShellAction> {
        KeyMap([
            KeyBinding([.char("1")], tr(.catalogTab), .selectTab(0)),
            KeyBinding([.char("2")], tr(.cartTab), .selectTab(1)),
            KeyBinding([.char("3")], tr(.profileTab), .selectTab(2)),
            KeyBinding([.char("4")], tr(.statisticsTab), .selectTab(3)),
            KeyBinding([.tab], tr(.nextTab), .nextTab),
            KeyBinding([.backTab], tr(.previousTab), .previousTab),
            KeyBinding([.escape, .backspace], tr(.back), .back),
            KeyBinding([.char("?"), .function(1)], tr(.help), .help),
            KeyBinding([.char("q"), .ctrl("c")], tr(.quit), .quit),
        ])
    }

    /// Keys that work even over a dialog, a menu or a text field: they are never typed text.
    static let overModal: Set<Key> = [.function(1), .ctrl("c")]

    /// The action of `key` when a modal layer has the focus.
    static func actionOverModal(for key: Key) -> ShellAction? {
        overModal.contains(key) ? map.action(for: key) : nil
    }

    /// Help lines for the keys that work over a modal layer.
    static var helpOverModal: [HelpEntry] {
        map.bindings.compactMap { binding in
            let keys = binding.keys.filter(overModal.contains)
            return keys.isEmpty
                ? nil : HelpEntry(keys: keys.map(\.description).joined(separator: " "), text: binding.help)
        }
    }

    /// Footer hints of the shell, after the screen's own.
    static func hints(canGoBack: Bool, modal: Bool) -> [KeyHint] {
        if modal { return [KeyHint("F1", tr(.hintHelp))] }
        return (canGoBack ? [KeyHint("Esc", tr(.hintBack))] : []) + [
            KeyHint("?", tr(.hintHelp)), KeyHint("q", tr(.hintQuit)),
        ]
    }
}
