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
    static let map = KeyMap<ShellAction>([
        KeyBinding([.char("1")], "Catalog tab", .selectTab(0)),
        KeyBinding([.char("2")], "Cart tab", .selectTab(1)),
        KeyBinding([.char("3")], "Profile tab", .selectTab(2)),
        KeyBinding([.char("4")], "Statistics tab", .selectTab(3)),
        KeyBinding([.tab], "Next tab", .nextTab),
        KeyBinding([.backTab], "Previous tab", .previousTab),
        KeyBinding([.escape, .backspace], "Back", .back),
        KeyBinding([.char("?"), .function(1)], "Help", .help),
        KeyBinding([.char("q"), .ctrl("c")], "Quit", .quit),
    ])
}
