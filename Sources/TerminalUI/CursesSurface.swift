import CNCursesW

/// The real terminal: shows a ``Buffer`` by writing the cells that differ from the one shown
/// before into curses' `stdscr`, then one `doupdate`.
///
/// Pictures in pixels: kitty uploads are written before the cells that show them; sixel and
/// iTerm2 images (``PixelOverlay``) after `doupdate`, at their cells, cursor saved and restored
/// around them, only while wholly visible and never on the last row (a sixel there scrolls the
/// screen). Curses does not know they are there, so when one is hidden its rows are redrawn
/// (`wredrawln`), and an image is written again whenever curses wrote anything on its rows.
///
/// Links (``Hyperlink``) are written the same way, after `doupdate`: their cells again inside an
/// OSC 8 escape, cursor and attributes saved and restored around them (DECSC/DECRC), again
/// whenever curses wrote on their row, and once more without the escape when a link goes but
/// its text stays.
@MainActor
public final class CursesSurface {
    private let window: UnsafeMutablePointer<WINDOW>
    private let colors: ColorSupport
    /// Where curses writes: picture escapes go there too, after curses' own output.
    private let output: UnsafeMutablePointer<FILE>
    /// The colours the frames' roles get.
    public var theme: Theme
    /// The pictures in pixels the frames place; nil for character art only.
    public var pixels: PixelImages?
    /// The overlays on the terminal now.
    private var shown: [PixelOverlay] = []
    /// Whether each frame is written between `CSI ? 2026 h` and `l` (synchronized output), so
    /// the terminal shows it whole however many reads or packets it crosses; terminals that do
    /// not know the mode ignore it, and one that said it cannot have it is not sent it.
    public var synchronizesFrames = true
    /// Whether links are written as OSC 8 hyperlinks (``HyperlinkSupport``).
    public var writesHyperlinks = false
    /// The links on the terminal now.
    private var linked: [Hyperlink] = []
    /// Bytes of picture escapes written so far (kitty uploads and overlays), for the benchmark.
    public private(set) var pictureBytesWritten = 0
    private var pairs: [PairKey: Int32] = [:]
    private var cursorVisible = false
    private var cursor: Point?
    private var focus: Point?
    /// Whether the frames are for a screen reader (`--accessible`): each is drawn
    /// ``Buffer/forScreenReader``, and the cursor is shown where the selection is, not only in fields.
    public var forScreenReader = false

    private struct PairKey: Hashable {
        var fg: Int32
        var bg: Int32
    }

    package init(
        window: UnsafeMutablePointer<WINDOW>, colors: ColorSupport, output: UnsafeMutablePointer<FILE>,
        theme: Theme = .dark
    ) {
        self.theme = theme
        self.window = window
        self.colors = colors
        self.output = output
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
        synchronize(true)
        defer { synchronize(false) }
        // a resize: nothing on screen is known
        if full, !shown.isEmpty || !frame.overlays.isEmpty { clearok(cnc_curscr(), true) }
        if let pending = pixels?.takePendingOutput(), !pending.isEmpty { write(pending) }
        var changedRows = Set<Int>()
        for y in 0..<frame.size.height {
            var x = 0
            while x < frame.size.width {
                if !full, let previous, previous[x, y] == frame[x, y] {
                    x += 1
                    continue
                }
                changedRows.insert(y)
                // A run of changed cells in one style.
                let style = frame[x, y].style
                let start = x
                var text = ""
                while x < frame.size.width, frame[x, y].style == style,
                    full || previous.map({ $0[x, y] != frame[x, y] }) ?? true
                {
                    text += frame[x, y].text
                    x += 1
                }
                // A run that starts on the right half of a wide character redraws that character.
                if frame[start, y].text.isEmpty, start > 0 {
                    draw(
                        frame[start - 1, y].text + text, at: Point(x: start - 1, y: y),
                        style: frame[start - 1, y].style, maxWidth: nil)
                } else {
                    draw(text, at: Point(x: start, y: y), style: style, maxWidth: nil)
                }
            }
        }
        cursor = frame.cursor
        focus = frame.focus
        showCursor()
        let visible =
            pixels == nil ? [] : frame.overlays.filter { $0.rect.maxY < frame.size.height && frame.isIntact($0) }
        // Hidden or moved images: curses repaints their rows, which wipes their pixels.
        for old in shown where !full && !visible.contains(old) {
            wredrawln(window, Int32(old.rect.y), Int32(old.rect.height))
            changedRows.formUnion(old.rect.y..<old.rect.maxY)
        }
        wnoutrefresh(window)
        doupdate()
        for overlay in visible
        where full || !shown.contains(overlay) || !changedRows.isDisjoint(with: overlay.rect.y..<overlay.rect.maxY) {
            writeOverlay(overlay)
        }
        shown = visible
        let links = writesHyperlinks ? frame.hyperlinks.filter(frame.isIntact) : []
        for old in linked where !links.contains(old) && frame.isIntact(old) { write(old, linked: false) }
        for link in links where full || !linked.contains(link) || changedRows.contains(link.origin.y) {
            write(link, linked: true)
        }
        linked = links
    }

    /// Forgets what the terminal shows and repaints all of it (after Ctrl-Z or a garbled screen).
    func repaintAll() {
        synchronize(true)
        defer { synchronize(false) }
        clearok(cnc_curscr(), true)
        wnoutrefresh(window)
        doupdate()
        shown.forEach(writeOverlay)
        for link in linked { write(link, linked: true) }
    }

    /// After a resize: reads the cell size in pixels again, so a zoomed font gets pictures of its size.
    func terminalResized(fd: Int32) {
        guard let pixels, let window = TerminalProbe.windowSize(fd: fd), window.cells.width > 0, window.cells.height > 0
        else { return }
        pixels.changeCellPixels(
            to: Size(
                width: window.pixels.width / window.cells.width, height: window.pixels.height / window.cells.height))
    }

    /// Clears the screen of pictures in pixels before the terminal is handed back (exit, Ctrl-Z):
    /// kitty images are deleted on exit, overlays are wiped by clearing the screen.
    /// The window keeps its contents (``repaintAll()`` brings text and pictures back after `fg`).
    func removePictures(deleteUploads: Bool) {
        if !shown.isEmpty { write("\u{1B}[H\u{1B}[2J") }
        guard deleteUploads else { return }
        pixels?.cancelEncoding()
        shown = []
        if let farewell = pixels?.farewell(), !farewell.isEmpty { write(farewell) }
    }

    private func writeOverlay(_ overlay: PixelOverlay) {
        guard let escape = pixels?.overlayEscape(overlay.image, at: Point(x: overlay.rect.x, y: overlay.rect.y)) else {
            return
        }
        write(escape)
    }

    /// Writes the cells of `link` again where they are, inside its OSC 8 escape when `linked`,
    /// leaving the cursor and attributes as curses left them.
    private func write(_ link: Hyperlink, linked: Bool) {
        var escape = "\u{1B}7\u{1B}[\(link.origin.y + 1);\(link.origin.x + 1)H"
        if linked { escape += "\u{1B}]8;;\(link.url)\u{1B}\\" }
        var style: Style?
        for cell in link.cells {
            if cell.style != style {
                escape += selectGraphicRendition(cell.style)
                style = cell.style
            }
            escape += cell.text
        }
        if linked { escape += "\u{1B}]8;;\u{1B}\\" }
        fputs(escape + "\u{1B}8", output)
        fflush(output)
    }

    /// The SGR escape that draws text in `drawn` as curses would (``apply(_:)``).
    private func selectGraphicRendition(_ drawn: Style) -> String {
        let style = theme.resolve(drawn, colors: colors)
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        func code(_ color: Color, base: Int) -> String? {
            guard let n = colors.cursesNumber(color), n >= 0 else { return nil }
            return n < 8 ? "\(base + Int(n))" : n < 16 ? "\(base + 60 + Int(n) - 8)" : "\(base + 8);5;\(n)"
        }
        if let fg = code(style.foreground, base: 30) { codes.append(fg) }
        if let bg = code(style.background, base: 40) { codes.append(bg) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// Opens (`true`) or closes a synchronized frame, when frames are synchronized.
    private func synchronize(_ opening: Bool) {
        guard synchronizesFrames else { return }
        fputs(opening ? "\u{1B}[?2026h" : "\u{1B}[?2026l", output)
        fflush(output)
    }

    /// Writes escapes straight to the terminal, after what curses has written.
    private func write(_ escape: String) {
        pictureBytesWritten += escape.utf8.count
        fputs(escape, output)
        fflush(output)
    }

    /// The cursor in a field; else at the selection (hidden unless ``forScreenReader``); else hidden.
    /// A hidden one is moved to the selection too: a known place at the start of a row, where a
    /// shell's output begins if the app is killed with the terminal unrestored (left at the end
    /// of the status line, that output wrapped; 4 bytes a frame).
    private func showCursor() {
        let place = cursor ?? focus
        let visible = cursor != nil || (focus != nil && forScreenReader)
        if visible != cursorVisible {
            curs_set(visible ? 1 : 0)
            cursorVisible = visible
        }
        if let place { wmove(window, Int32(place.y), Int32(place.x)) }
    }

    private func apply(_ drawn: Style) {
        let style = theme.resolve(drawn, colors: colors)
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
            fg != -1 || bg != -1
        else { return 0 }
        let key = PairKey(fg: fg, bg: bg)
        if let pair = pairs[key] { return pair }
        let next = Int32(pairs.count + 1)
        guard next < cnc_color_pairs(), init_extended_pair(next, fg, bg) == OK else { return 0 }
        pairs[key] = next
        return next
    }
}
