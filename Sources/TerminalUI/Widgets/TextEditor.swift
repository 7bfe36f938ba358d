/// The editing model behind single- and multi-line text fields: text as grapheme clusters and a cursor.
///
/// Everything inserted goes through ``SafeText``: a pasted escape sequence or control
/// character never enters the text. Newlines are kept only in multi-line editors.
public struct TextEditor: Sendable, Hashable {
    public private(set) var characters: [Character]
    /// The text: kept beside ``characters`` (typing and erasing at the end change it in place),
    /// so that reading it costs nothing per key.
    public private(set) var text: String
    /// Cursor position as an index into ``characters`` (0...count).
    public private(set) var cursor: Int
    public let multiline: Bool
    public let maxLength: Int?

    public init(_ text: String = "", multiline: Bool = false, maxLength: Int? = nil) {
        self.multiline = multiline
        self.maxLength = maxLength
        // Cut to the limit at once: each later edit then takes time bounded by the limit, not by
        // what a server sent.
        let clean = SafeText.sanitize(text, keepNewlines: multiline)
        characters = Array(maxLength.map { clean.prefix($0) } ?? clean[...])
        self.text = String(characters)
        cursor = characters.count
    }

    /// The same editor with every character shown as a dot (a password field).
    public var masked: TextEditor {
        var copy = self
        copy.characters = characters.map { $0 == "\n" ? $0 : "•" }
        copy.text = String(copy.characters)
        return copy
    }

    /// Inserts typed or pasted text at the cursor.
    public mutating func insert(_ text: String) {
        var clean = Array(SafeText.sanitize(text, keepNewlines: multiline))
        if let maxLength { clean = Array(clean.prefix(max(0, maxLength - characters.count))) }
        guard !clean.isEmpty else { return }
        if cursor == characters.count {
            characters.append(contentsOf: clean)
            self.text.append(contentsOf: clean)
        } else {
            characters.insert(contentsOf: clean, at: cursor)
            self.text = String(characters)
        }
        cursor += clean.count
    }

    /// The editing keys ``handle(_:)`` uses, for help overlays.
    public static var help: [HelpEntry] {
        [
            HelpEntry(keys: "← → Home End", text: WidgetText.editorMove()),
            HelpEntry(keys: "Backspace Delete", text: WidgetText.editorDelete()),
            HelpEntry(keys: "Ctrl-U Ctrl-K Ctrl-W", text: WidgetText.editorDeleteMore()),
        ]
    }

    /// Edits for a key; returns false when the key is not an editing key.
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .char(let c): insert(String(c))
        case .enter where multiline: insert("\n")
        case .backspace, .ctrl("h"):
            // Erasing an ASCII character at the end (which no mark joins to the one before).
            if cursor == characters.count, let last = characters.last, last.isASCII, last != "\n" {
                characters.removeLast()
                text.removeLast()
                cursor -= 1
            } else if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
                text = String(characters)
            }
        case .delete, .ctrl("d"):
            if cursor < characters.count {
                characters.remove(at: cursor)
                text = String(characters)
            }
        case .left, .ctrl("b"): cursor = max(0, cursor - 1)
        case .right, .ctrl("f"): cursor = min(characters.count, cursor + 1)
        case .home, .ctrl("a"): cursor = lineStart(of: cursor)
        case .end, .ctrl("e"): cursor = lineEnd(of: cursor)
        case .ctrl("u"):
            let start = lineStart(of: cursor)
            characters.removeSubrange(start..<cursor)
            cursor = start
            text = String(characters)
        case .ctrl("k"):
            characters.removeSubrange(cursor..<lineEnd(of: cursor))
            text = String(characters)
        case .ctrl("w"):
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " ", characters[start - 1] != "\n" { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
            text = String(characters)
        case .up where multiline: moveVertically(-1)
        case .down where multiline: moveVertically(1)
        default: return false
        }
        return true
    }

    private func lineStart(of index: Int) -> Int {
        var i = index
        while i > 0, characters[i - 1] != "\n" { i -= 1 }
        return i
    }

    private func lineEnd(of index: Int) -> Int {
        var i = index
        while i < characters.count, characters[i] != "\n" { i += 1 }
        return i
    }

    private mutating func moveVertically(_ delta: Int) {
        let start = lineStart(of: cursor)
        let column = DisplayWidth.of(String(characters[start..<cursor]))
        let target: Int
        if delta < 0 {
            guard start > 0 else {
                cursor = 0
                return
            }
            target = lineStart(of: start - 1)
        } else {
            let end = lineEnd(of: cursor)
            guard end < characters.count else {
                cursor = characters.count
                return
            }
            target = end + 1
        }
        var i = target, used = 0
        let end = lineEnd(of: target)
        while i < end, used + DisplayWidth.of(characters[i]) <= column {
            used += DisplayWidth.of(characters[i])
            i += 1
        }
        cursor = i
    }

    /// The text split into lines with the cursor's (line, display column).
    public var lines: (lines: [String], cursorLine: Int, cursorColumn: Int) {
        var lines: [String] = [""]
        var cursorLine = 0, cursorColumn = 0
        for (i, c) in characters.enumerated() {
            if i == cursor {
                cursorLine = lines.count - 1
                cursorColumn = DisplayWidth.of(lines[lines.count - 1])
            }
            if c == "\n" { lines.append("") } else { lines[lines.count - 1].append(c) }
        }
        if cursor == characters.count {
            cursorLine = lines.count - 1
            cursorColumn = DisplayWidth.of(lines[lines.count - 1])
        }
        return (lines, cursorLine, cursorColumn)
    }
}

/// Draws a ``TextEditor`` in a rectangle, scrolled so the cursor is visible, and places the cursor when focused.
@MainActor
public struct TextFieldView: Widget {
    public var editor: TextEditor
    public var focused: Bool
    public var placeholder: String

    public init(_ editor: TextEditor, focused: Bool, placeholder: String = "") {
        self.editor = editor
        self.focused = focused
        self.placeholder = placeholder
    }

    public func render(in rect: Rect, buffer: inout Buffer) {
        guard rect.width > 0, rect.height > 0 else { return }
        let style: Style = focused ? Style(underline: true) : .plain
        buffer.fill(rect, with: " ", style: style)
        if editor.characters.isEmpty, !placeholder.isEmpty, !focused {
            buffer.draw(placeholder, at: Point(x: rect.x, y: rect.y), style: .dim, maxWidth: rect.width)
        }
        if !editor.multiline { return renderLine(in: rect, style: style, buffer: &buffer) }
        let (lines, cursorLine, cursorColumn) = editor.lines
        // Only the focused field scrolls to its cursor; others show their start.
        let firstLine = focused ? max(0, cursorLine - rect.height + 1) : 0
        let scrollX = focused ? max(0, cursorColumn - rect.width + 1) : 0
        for row in 0..<rect.height {
            let index = firstLine + row
            guard index < lines.count else { break }
            var line = lines[index]
            if scrollX > 0 { line = Self.dropCells(scrollX, from: line) }
            // Raw drawing: the editor's text is already safe and must not be cut with "…".
            var x = rect.x
            for c in line {
                let w = DisplayWidth.of(c)
                if x + w > rect.maxX { break }
                buffer.draw(String(c), at: Point(x: x, y: rect.y + row), style: style, maxWidth: w)
                x += w
            }
        }
        if focused {
            buffer.cursor = Point(
                x: rect.x + min(cursorColumn - scrollX, rect.width - 1), y: rect.y + cursorLine - firstLine)
        }
    }

    /// A one-line field: only the characters in view are measured (back from the cursor to the
    /// field's width when focused, from the start otherwise), so a key costs the same at the
    /// 2,000th character as at the first.
    private func renderLine(in rect: Rect, style: Style, buffer: inout Buffer) {
        let characters = editor.characters
        var first = 0, cursorX = 0
        if focused {
            first = editor.cursor
            while first > 0, cursorX + DisplayWidth.of(characters[first - 1]) <= rect.width - 1 {
                first -= 1
                cursorX += DisplayWidth.of(characters[first])
            }
        }
        // Raw drawing: the editor's text is already safe and must not be cut with "…".
        var x = rect.x, index = first
        while index < characters.count {
            let w = DisplayWidth.of(characters[index])
            if x + w > rect.maxX { break }
            buffer.draw(String(characters[index]), at: Point(x: x, y: rect.y), style: style, maxWidth: w)
            x += w
            index += 1
        }
        if focused { buffer.cursor = Point(x: rect.x + cursorX, y: rect.y) }
    }

    private static func dropCells(_ cells: Int, from line: String) -> String {
        var dropped = 0
        var rest = Substring(line)
        while dropped < cells, let c = rest.first {
            dropped += DisplayWidth.of(c)
            rest = rest.dropFirst()
        }
        return String(rest)
    }
}
