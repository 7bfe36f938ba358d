import Localization
import TerminalUI

/// Marking several items of a list or grid (``Pane/markID``): what `c`, `l` and the cart's
/// removal then act on, all at once.
enum Marks {
    enum Action: Sendable { case mark, extendUp, extendDown, extendLeft, extendRight, clear }

    /// Space marks (or unmarks) and moves on, Shift with an arrow marks on the way, Esc clears
    /// the marks (before it clears a search or goes back); the footer says how many are marked.
    static func keys(count: Int) -> KeyMap<Action> {
        KeyMap(
            "marks",
            [
                KeyBinding([.char(" ")], tr(.markItem), .mark),
                KeyBinding([.shiftUp], tr(.markThen, tr(.moveUp).lowercased()), name: "extend-up", .extendUp),
                KeyBinding([.shiftDown], tr(.markThen, tr(.moveDown).lowercased()), name: "extend-down", .extendDown),
                KeyBinding([.shiftLeft], tr(.markThen, tr(.moveLeft).lowercased()), name: "extend-left", .extendLeft),
                KeyBinding(
                    [.shiftRight], tr(.markThen, tr(.moveRight).lowercased()), name: "extend-right", .extendRight),
                KeyBinding([.escape], tr(.clearMarks), hint: tr(.hintMarked, count), .clear),
            ])
    }
}
