import Localization

/// A move of the selection in a list or a grid.
public enum SelectionMove: Sendable {
    case left, right, up, down, pageUp, pageDown, first, last

    /// Up and down, by a page, to either end: a list's keys, and a grid's besides ← →.
    static var vertical: [KeyBinding<SelectionMove>] {
        [
            KeyBinding([.up, .char("k")], tr(.moveUp), .up),
            KeyBinding([.down, .char("j")], tr(.moveDown), .down),
            KeyBinding([.pageUp, .ctrl("b")], tr(.pageUp), .pageUp),
            KeyBinding([.pageDown, .ctrl("f")], tr(.pageDown), .pageDown),
            KeyBinding([.home, .char("g")], tr(.moveFirst), .first),
            KeyBinding([.end, .char("G")], tr(.moveLast), .last),
        ]
    }
}
