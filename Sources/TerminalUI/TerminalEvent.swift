/// A key the user pressed.
public enum Key: Sendable, Hashable, CustomStringConvertible {
    /// A printable character.
    case char(Character)
    /// Ctrl plus a letter, lower-cased: `.ctrl("c")`.
    case ctrl(Character)
    case up, down, left, right
    /// An arrow with Shift.
    case shiftUp, shiftDown, shiftLeft, shiftRight
    case pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace, delete
    case function(Int)

    public var description: String {
        switch self {
        case .char(" "): return "Space"
        case .char(let c): return String(c)
        case .ctrl(let c): return "Ctrl-\(c.uppercased())"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .shiftUp: return "Shift-↑"
        case .shiftDown: return "Shift-↓"
        case .shiftLeft: return "Shift-←"
        case .shiftRight: return "Shift-→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .function(let n): return "F\(n)"
        }
    }
}

/// A mouse action at a cell.
public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case click, wheelUp, wheelDown }
    public var kind: Kind
    public var point: Point
    public init(kind: Kind, point: Point) {
        self.kind = kind
        self.point = point
    }
}

/// Everything the terminal reports to the app.
public enum TerminalEvent: Sendable, Hashable {
    case key(Key)
    /// Text pasted in one go (bracketed paste), already sanitized.
    case paste(String)
    /// The paste just delivered was longer than `limit` characters and was cut there.
    case pasteCut(limit: Int)
    /// Keys that came faster than anyone types were dropped (``InputBacklog``): how many.
    case keysDropped(Int)
    case mouse(MouseEvent)
    /// A click on item `index` of the list or grid `area`, resolved from the frame's clickable
    /// parts (``Buffer/target(at:)``) by the shell.
    case pick(area: String, index: Int)
    case resize(Size)
    /// The app came back from Ctrl-Z: repaint everything.
    case resumed
    /// SIGUSR1: the settings are to be read again.
    case reload
    /// The terminal answered the start-up queries (``TerminalProbe/queries(inTmux:)``), every
    /// reply up to the last device attributes; later, it answered the background colour asked
    /// again on focus, or reported its colour scheme on its own (mode 2031). Never a key.
    case terminalReplies(TerminalReplies)
}
