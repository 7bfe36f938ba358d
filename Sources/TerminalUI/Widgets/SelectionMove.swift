/// A move of the selection in a list or a grid.
public enum SelectionMove: Sendable {
    case left, right, up, down, pageUp, pageDown, first, last

    /// Up and down, by a page, to either end: a list's keys, and a grid's besides ← →.
    static var vertical: [KeyBinding<SelectionMove>] {
        [
            KeyBinding([.up, .char("k")], WidgetText.moveUp(), .up),
            KeyBinding([.down, .char("j")], WidgetText.moveDown(), .down),
            KeyBinding([.pageUp, .ctrl("b")], WidgetText.pageUp(), .pageUp),
            KeyBinding([.pageDown, .ctrl("f")], WidgetText.pageDown(), .pageDown),
            KeyBinding([.home, .char("g")], WidgetText.moveFirst(), .first),
            KeyBinding([.end, .char("G")], WidgetText.moveLast(), .last),
        ]
    }
}
