import Localization
import TerminalUI

/// Keys that work everywhere unless the screen in focus uses them first.
enum ShellAction: Sendable, Hashable {
    case selectTab(Int)
    case nextTab, previousTab
    case back
    case help
    case goTo
    case palette
    case undo
    case reload
    case quit
}

enum ShellKeys {
    static var map: KeyMap<ShellAction> {
        KeyMap(
            "shell",
            [
                KeyBinding([.char("1")], tr(.catalogTab), name: "catalog-tab", .selectTab(0)),
                KeyBinding([.char("2")], tr(.cartTab), name: "cart-tab", .selectTab(1)),
                KeyBinding([.char("3")], tr(.profileTab), name: "profile-tab", .selectTab(2)),
                KeyBinding([.char("4")], tr(.statisticsTab), name: "statistics-tab", .selectTab(3)),
                KeyBinding([.tab], tr(.nextTab), .nextTab),
                KeyBinding([.backTab], tr(.previousTab), .previousTab),
                KeyBinding([.escape, .backspace], tr(.back), hint: tr(.hintBack), .back),
                KeyBinding([.char("?"), .function(1)], tr(.help), hint: tr(.hintHelp), .help),
                KeyBinding([.ctrl("p")], tr(.goTo), name: "go-to", .goTo),
                KeyBinding([.char(":")], tr(.palette), .palette),
                KeyBinding([.char("u")], tr(.undo), changesData: true, .undo),
                KeyBinding([.ctrl("r")], tr(.reloadSettings), name: "reload", .reload),
                KeyBinding([.char("q"), .ctrl("c")], tr(.quit), hint: tr(.hintQuit), .quit),
            ])
    }

    /// Keys that work even over a dialog, a menu or a text field: they are never typed text.
    static let overModal = KeyRemap.fixed

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
        if modal { return [KeyHint(Key.function(1).description, tr(.hintHelp))] }
        return map.hints { $0 != .back || canGoBack }
    }
}
