import CNCursesW

/// The real terminal: shows a ``Buffer`` by writing, as one block of escapes, the runs of cells
/// that differ from the frame shown before (``FrameBytes``). Curses only takes and gives back the
/// terminal (modes, the alternate screen, the size); it never draws.
///
/// Pictures in pixels: kitty uploads are written before the cells that show them; sixel and
/// iTerm2 images (``PixelOverlay``) after the cells, cursor saved and restored around them, only
/// while wholly visible and never on the last row (a sixel there scrolls the screen). When one is
/// hidden its rows are written again (which wipes its pixels), and an image is written again
/// whenever anything was written on its rows.
///
/// Links (``Hyperlink``) are written the same way, after the cells: their cells again inside an
/// OSC 8 escape, cursor and attributes saved and restored around them (DECSC/DECRC), again
/// whenever anything was written on their row, and once more without the escape when a link goes
/// but its text stays.
@MainActor
public final class TerminalSurface {
    private let window: UnsafeMutablePointer<WINDOW>
    private let colors: ColorSupport
    /// Where frames go: picture and link escapes too, in order with the cells.
    private let output: UnsafeMutablePointer<FILE>
    /// The colours the frames' roles get.
    public var theme: Theme {
        didSet { attributes = GraphicRenditions(theme: theme, colors: colors) }
    }
    private var attributes: GraphicRenditions
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
    /// The frame on the terminal now, for a repaint.
    private var onScreen: Buffer?
    /// The scroll region the last frame left (nil: the whole screen), undone when the terminal is
    /// handed back.
    private var scrollRegion: Range<Int>?
    /// Whether the terminal scrolls a region by a count (terminfo's `indn`: not the Linux console).
    private let scrollsByCount: Bool
    private var cursorVisible = false
    /// Whether the frames are for a screen reader (`--accessible`): each is drawn
    /// ``Buffer/forScreenReader``, and the cursor is shown where the selection is, not only in fields.
    public var forScreenReader = false

    package init(
        window: UnsafeMutablePointer<WINDOW>, colors: ColorSupport, output: UnsafeMutablePointer<FILE>,
        theme: Theme = .dark
    ) {
        self.theme = theme
        self.window = window
        self.colors = colors
        self.output = output
        attributes = GraphicRenditions(theme: theme, colors: colors)
        scrollsByCount = cnc_has_capability("indn") != 0
    }

    public var size: Size { Size(width: max(0, Int(getmaxx(window))), height: max(0, Int(getmaxy(window)))) }

    /// Writes the cells of `frame` that look different from `previous` (all of them, over a
    /// cleared screen, without one of the same size), then the cursor, overlays and links.
    public func present(_ frame: Buffer, over previous: Buffer?) {
        let previous = previous?.size == frame.size ? previous : nil
        var bytes = FrameBytes(attributes: attributes, region: scrollRegion)
        if synchronizesFrames { bytes.append(Self.synchronized.on) }
        if let pending = pixels?.takePendingOutput(), !pending.isEmpty {
            pictureBytesWritten += pending.utf8.count
            bytes.append(pending)
        }
        let visible =
            pixels == nil ? [] : frame.overlays.filter { $0.rect.maxY < frame.size.height && frame.isIntact($0) }
        // Rows of hidden or moved images are written again: that wipes their pixels.
        var rewritten = Set<Int>()
        if previous != nil {
            for old in shown where !visible.contains(old) { rewritten.formUnion(old.rect.y..<old.rect.maxY) }
        }
        let changedRows = bytes.write(
            frame, over: previous, rewriting: rewritten, scrolling: shown.isEmpty, counted: scrollsByCount)
        // Pictures in pixels are written with the whole screen scrolling: a sixel past a
        // region's bottom would scroll the region.
        if pixels != nil { bytes.wholeScreenScrolls() }
        scrollRegion = bytes.region
        write(bytes.bytes)
        let showsCursor = frame.cursor != nil || (frame.focus != nil && forScreenReader)
        if showsCursor != cursorVisible {
            curs_set(showsCursor ? 1 : 0)
            cursorVisible = showsCursor
        }
        for overlay in visible
        where previous == nil || !shown.contains(overlay)
            || !changedRows.isDisjoint(with: overlay.rect.y..<overlay.rect.maxY)
        {
            writeOverlay(overlay)
        }
        shown = visible
        let links = writesHyperlinks ? frame.hyperlinks.filter(frame.isIntact) : []
        for old in linked where !links.contains(old) && frame.isIntact(old) { write(old, linked: false) }
        for link in links where previous == nil || !linked.contains(link) || changedRows.contains(link.origin.y) {
            write(link, linked: true)
        }
        linked = links
        onScreen = frame
        if synchronizesFrames { write(Array(Self.synchronized.off.utf8)) }
    }

    /// Forgets what the terminal shows and repaints all of it (after Ctrl-Z or a garbled screen).
    func repaintAll() {
        shown = []
        linked = []
        guard let onScreen else { return }
        present(onScreen, over: nil)
    }

    /// After a resize: reads the cell size in pixels again, so a zoomed font gets pictures of its size.
    func terminalResized(fd: Int32) {
        guard let pixels, let window = TerminalProbe.windowSize(fd: fd), window.cells.width > 0, window.cells.height > 0
        else { return }
        pixels.changeCellPixels(
            to: Size(
                width: window.pixels.width / window.cells.width, height: window.pixels.height / window.cells.height))
    }

    /// Before the terminal is handed back (exit, Ctrl-Z): the whole screen scrolls again, and
    /// pictures in pixels are cleared (kitty images are deleted on exit, overlays are wiped by
    /// clearing the screen). ``repaintAll()`` brings text and pictures back after `fg`.
    func handBack(deleteUploads: Bool) {
        if scrollRegion != nil {
            write(Array("\u{1B}[r".utf8))
            scrollRegion = nil
        }
        if !shown.isEmpty { write(Array("\u{1B}[H\u{1B}[2J".utf8)) }
        guard deleteUploads else { return }
        pixels?.cancelEncoding()
        shown = []
        if let farewell = pixels?.farewell(), !farewell.isEmpty { write(Array(farewell.utf8)) }
    }

    private func writeOverlay(_ overlay: PixelOverlay) {
        guard let escape = pixels?.overlayEscape(overlay.image, at: Point(x: overlay.rect.x, y: overlay.rect.y)) else {
            return
        }
        pictureBytesWritten += escape.utf8.count
        write(Array(escape.utf8))
    }

    /// Writes the cells of `link` again where they are, inside its OSC 8 escape when `linked`,
    /// leaving the cursor and attributes as they were.
    private func write(_ link: Hyperlink, linked: Bool) {
        var escape = "\u{1B}7\u{1B}[\(link.origin.y + 1);\(link.origin.x + 1)H"
        if linked { escape += "\u{1B}]8;;\(link.url)\u{1B}\\" }
        var style: Style?
        for cell in link.cells {
            if cell.style != style {
                escape += "\u{1B}[0;" + attributes.codes(attributes.resolve(cell.style)) + "m"
                style = cell.style
            }
            escape += cell.text
        }
        if linked { escape += "\u{1B}]8;;\u{1B}\\" }
        write(Array((escape + "\u{1B}8").utf8))
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, output) }
        fflush(output)
    }

    private static let synchronized = (on: "\u{1B}[?2026h", off: "\u{1B}[?2026l")
}
