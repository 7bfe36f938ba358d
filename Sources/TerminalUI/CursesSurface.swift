import CNCursesW

/// The real terminal: shows a ``Buffer`` by writing the cells that differ from the one shown
/// before into curses' `stdscr`, then one `doupdate`.
@MainActor
public final class CursesSurface {
    private let window: UnsafeMutablePointer<WINDOW>
    private let colors: ColorSupport
    private var pairs: [PairKey: Int32] = [:]
    private var cursorVisible = false
    private var cursor: Point?

    private struct PairKey: Hashable { var fg: Int32; var bg: Int32 }

    init(window: UnsafeMutablePointer<WINDOW>, colors: ColorSupport) {
        self.window = window
        self.colors = colors
    }

    public var size: Size { Size(width: Int(getmaxx(window)), height: Int(getmaxy(window))) }

    @discardableResult
    private func draw(_ text: String, at point: Point, style: Style, maxWidth: Int?) -> Int {
        let limit = min(maxWidth ?? Int.max, size.width - point.x)
        guard limit > 0, point.y >= 0, point.y < size.height, point.x >= 0 else { return 0 }
        let line = DisplayWidth.truncate(DisplayWidth.displayText(SafeText.sanitize(text)), to: limit)
        apply(style)
        var wide = line.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        wide.append(0)
        _ = mvwaddwstr(window, Int32(point.y), Int32(point.x), wide)
        return DisplayWidth.of(line)
    }

    /// Copies the cells of `frame` that differ from `previous` to the terminal and updates it once.
    /// Curses compares again with what the terminal shows, so only real changes are written.
    public func present(_ frame: Buffer, over previous: Buffer?) {
        let full = previous?.size != frame.size
        for y in 0..<frame.size.height {
            var x = 0
            while x < frame.size.width {
                if !full, let previous, previous[x, y] == frame[x, y] { x += 1; continue }
                // A run of changed cells in one style.
                let style = frame[x, y].style
                let start = x
                var text = ""
                while x < frame.size.width, frame[x, y].style == style,
                      full || previous.map({ $0[x, y] != frame[x, y] }) ?? true {
                    text += frame[x, y].text
                    x += 1
                }
                // A run that starts on the right half of a wide character redraws that character.
                if frame[start, y].text.isEmpty, start > 0 {
                    draw(frame[start - 1, y].text + text, at: Point(x: start - 1, y: y), style: frame[start - 1, y].style, maxWidth: nil)
                } else {
                    draw(text, at: Point(x: start, y: y), style: style, maxWidth: nil)
                }
            }
        }
        cursor = frame.cursor
        showCursor()
        wnoutrefresh(window)
        doupdate()
    }

    /// Forgets what the terminal shows and repaints all of it (after Ctrl-Z or a garbled screen).
    func repaintAll() {
        clearok(cnc_curscr(), true)
        wnoutrefresh(window)
        doupdate()
    }

    private func showCursor() {
        if let cursor {
            if !cursorVisible { curs_set(1); cursorVisible = true }
            wmove(window, Int32(cursor.y), Int32(cursor.x))
        } else if cursorVisible {
            curs_set(0); cursorVisible = false
        }
    }

    private func apply(_ style: Style) {
        var attrs = cnc_A_NORMAL()
        if style.bold { attrs |= cnc_A_BOLD() }
        if style.dim { attrs |= cnc_A_DIM() }
        if style.reverse { attrs |= cnc_A_REVERSE() }
        if style.underline { attrs |= cnc_A_UNDERLINE() }
        var pair = pairNumber(style)
        wattr_set(window, attrs, 0, &pair)
    }

    private func pairNumber(_ style: Style) -> Int32 {
        guard let fg = colors.cursesNumber(style.foreground), let bg = colors.cursesNumber(style.background),
              fg != -1 || bg != -1 else { return 0 }
        let key = PairKey(fg: fg, bg: bg)
        if let pair = pairs[key] { return pair }
        let next = Int32(pairs.count + 1)
        guard next < cnc_color_pairs(), init_extended_pair(next, fg, bg) == OK else { return 0 }
        pairs[key] = next
        return next
    }
}
