/// One screen cell: a grapheme cluster (empty for the right half of a wide character) and its style.
public struct Cell: Sendable, Hashable {
    public var text: String
    public var style: Style
    public init(text: String = " ", style: Style = .plain) {
        self.text = text
        self.style = style
    }
    /// The right half of a wide character.
    public static let continuation = Cell(text: "", style: .plain)
}

/// A part of the frame that reacts to a click: a button standing for a key, or a row of a list
/// or a grid (the widget records the row's index, scroll offset included).
public enum HitTarget: Sendable, Hashable {
    /// Clicking is pressing `key` (a drawn button such as `[ Pay (p) ]`).
    case key(Key)
    /// Row or cell `index` of the list or grid called `area`.
    case item(area: String, index: Int)
    /// A button inside row or cell `index` of `area`: clicking picks that item, then presses `key`.
    case itemButton(area: String, index: Int, key: Key)
}

/// A clickable rectangle of the frame.
public struct Hit: Sendable, Hashable {
    public var rect: Rect
    public var target: HitTarget
}

/// A picture in pixels the surface writes over the frame's text once it is shown (sixel,
/// iTerm2): the cells it covers, the image (see ``PixelImages``), and the cells drawn beneath
/// it (character art). It is written only while those cells are all still there, so anything
/// drawn over a part of it (a dialog, a toast, a scrolled list) hides it.
public struct PixelOverlay: Sendable, Hashable {
    public var rect: Rect
    public var image: Int
    public var cells: [Cell]
}

/// A frame as a value: a grid of cells with styles, where the cursor goes, and the clickable
/// parts widgets reported. Every widget renders into a rectangle of one; the terminal only
/// shows the differences between two (``TerminalSurface``), and snapshot tests read its text.
///
/// Text is always drawn through ``SafeText`` and cut to the width it may take.
public struct Buffer: Sendable, Hashable {
    public let size: Size
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should be shown (nil hides it).
    public var cursor: Point?
    /// Where the selected row or cell starts: without a ``cursor``, the terminal cursor is left
    /// there after the frame (shown ``forScreenReader``), so a screen reader follows the selection.
    public var focus: Point?
    /// Clickable parts, in drawing order: the last one containing a point is on top.
    public private(set) var hits: [Hit] = []
    /// Links of the pictures drawn, in drawing order: what the frame wants loaded.
    public private(set) var pictures: [String] = []
    /// The lists' and grids' layouts, by area name: what the keys of the next events move in.
    public private(set) var panes: [String: PaneLayout] = [:]
    /// Pictures in pixels written over the text after the frame is shown, in drawing order.
    public private(set) var overlays: [PixelOverlay] = []
    /// Drawn text that links to a web address (OSC 8 where the terminal has it), in drawing order.
    public private(set) var hyperlinks: [Hyperlink] = []
    /// The frame is for a screen reader (`--accessible`): widgets draw words where they would draw
    /// glyphs (a still spinner, a picture's name, "4 of 5" for stars), and the terminal cursor is
    /// left at the ``focus``.
    public let forScreenReader: Bool

    /// An empty frame of `size`; `forScreenReader` as the frame it is drawn for says.
    public init(size: Size, forScreenReader: Bool = false) {
        self.size = size
        self.forScreenReader = forScreenReader
        cells = Array(repeating: Cell(), count: max(0, size.width * size.height))
    }

    public subscript(x: Int, y: Int) -> Cell { cells[y * size.width + x] }

    /// Dims every cell (what waits behind a spinner) and drops the clickable parts.
    public mutating func dimAll() {
        for i in cells.indices {
            cells[i].style.dim = true
            cells[i].style.reverse = false
            cells[i].style.underline = false
        }
        hits = []
    }

    /// Draws `text` (sanitized, one line) at `point`, cut to `maxWidth` cells with "…". Returns the cells used.
    @discardableResult
    public mutating func draw(_ text: String, at point: Point, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard point.y >= 0, point.y < size.height, point.x < size.width else { return 0 }
        let limit = min(maxWidth ?? Int.max, size.width - max(0, point.x))
        guard limit > 0 else { return 0 }
        let safe = SafeText.sanitize(text)
        // Characters that are one scalar each, drawn as they are (most text): no breaking into characters.
        if !safe.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), let width = DisplayWidth.standaloneWidth(safe) {
            let room = width > limit ? limit - 1 : limit
            var x = point.x
            for scalar in safe.unicodeScalars {
                let w = DisplayWidth.standaloneWidth(scalar) ?? 0
                if w == 0 { continue }
                if x + w > point.x + room { break }
                if x >= 0 { put(Cell(text: String(scalar), style: style), x: x, y: point.y, width: w) }
                x += w
            }
            if room < limit {
                if x >= 0 { put(Cell(text: "…", style: style), x: x, y: point.y, width: 1) }
                x += 1
            }
            return x - point.x
        }
        let line = DisplayWidth.truncate(DisplayWidth.displayText(safe), to: limit)
        var x = point.x
        if line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {  // ASCII: one cell per byte
            for byte in line.utf8 {
                if x >= 0 { put(Cell(text: String(UnicodeScalar(byte)), style: style), x: x, y: point.y, width: 1) }
                x += 1
            }
            return x - point.x
        }
        for c in line {
            let w = DisplayWidth.of(c)
            if w == 0 { continue }
            if x + w > point.x + limit { break }
            if x >= 0 { put(Cell(text: String(c), style: style), x: x, y: point.y, width: w) }
            x += w
        }
        return x - point.x
    }

    /// Draws `text` like ``draw(_:at:style:maxWidth:)`` as a link to `url` (an address already
    /// checked as a web link; one that is not writable is drawn as text alone).
    @discardableResult
    public mutating func draw(_ text: String, at point: Point, style: Style, maxWidth: Int? = nil, link url: String)
        -> Int
    {
        let used = draw(text, at: point, style: style, maxWidth: maxWidth)
        let x0 = max(0, point.x), x1 = min(size.width, point.x + used)
        guard x0 < x1, Hyperlink.isWritable(url) else { return used }
        let row = point.y * size.width
        hyperlinks.append(
            Hyperlink(origin: Point(x: x0, y: point.y), cells: Array(cells[row + x0..<row + x1]), url: url))
        return used
    }

    /// Fills `rect` with `character` in `style`.
    public mutating func fill(_ rect: Rect, with character: Character, style: Style) {
        let x0 = max(0, rect.x), x1 = min(size.width, rect.maxX)
        let y0 = max(0, rect.y), y1 = min(size.height, rect.maxY)
        guard x0 < x1, y0 < y1 else { return }
        let cell = Cell(text: String(character), style: style)
        for y in y0..<y1 {
            for x in x0..<x1 { put(cell, x: x, y: y, width: 1) }
        }
    }

    public mutating func clear(_ rect: Rect, style: Style = .plain) { fill(rect, with: " ", style: style) }

    /// Notes how the list or grid `area` was laid out (see ``panes``).
    public mutating func record(_ layout: PaneLayout, as area: String) { panes[area] = layout }

    /// Notes that the frame shows the picture at `link` (see ``pictures``).
    public mutating func want(picture link: String) { pictures.append(link) }

    /// Puts `cells` (`columns` wide, row by row, one cell each: character art) at `origin`.
    public mutating func place(_ cells: [Cell], columns: Int, at origin: Point) {
        guard columns > 0 else { return }
        for (i, cell) in cells.enumerated() {
            let x = origin.x + i % columns, y = origin.y + i / columns
            guard x >= 0, y >= 0, x < size.width, y < size.height else { continue }
            put(cell, x: x, y: y, width: 1)
        }
    }

    /// Puts `cells` like ``place(_:columns:at:)`` and the pixel image `image` over them.
    public mutating func place(_ cells: [Cell], columns: Int, at origin: Point, overlay image: Int) {
        place(cells, columns: columns, at: origin)
        guard columns > 0 else { return }
        overlays.append(
            PixelOverlay(
                rect: Rect(x: origin.x, y: origin.y, width: columns, height: cells.count / columns), image: image,
                cells: cells))
    }

    /// True while every cell beneath `overlay` is the one placed there: nothing drew over it,
    /// and it lies wholly on the frame.
    public func isIntact(_ overlay: PixelOverlay) -> Bool {
        let rect = overlay.rect
        guard rect.x >= 0, rect.y >= 0, rect.maxX <= size.width, rect.maxY <= size.height,
            overlay.cells.count == rect.width * rect.height
        else {
            return false
        }
        for y in 0..<rect.height {
            let row = (rect.y + y) * size.width + rect.x
            for x in 0..<rect.width where cells[row + x] != overlay.cells[y * rect.width + x] { return false }
        }
        return true
    }

    /// True while every cell `link` was drawn as is still there.
    public func isIntact(_ link: Hyperlink) -> Bool {
        let origin = link.origin
        guard origin.x >= 0, origin.y >= 0, origin.y < size.height, origin.x + link.cells.count <= size.width else {
            return false
        }
        let row = origin.y * size.width + origin.x
        return link.cells.indices.allSatisfy { cells[row + $0] == link.cells[$0] }
    }

    /// Records `rect` as clickable (clipped to the buffer; nothing for an empty part).
    public mutating func addHit(_ rect: Rect, _ target: HitTarget) {
        let clipped = Rect(
            x: max(0, rect.x), y: max(0, rect.y), width: min(rect.maxX, size.width) - max(0, rect.x),
            height: min(rect.maxY, size.height) - max(0, rect.y))
        if !clipped.isEmpty { hits.append(Hit(rect: clipped, target: target)) }
    }

    /// Draws `label` as a button clicked as `key` (a label alone when nil); returns the cells used.
    @discardableResult
    public mutating func button(_ label: String, at point: Point, style: Style, maxWidth: Int? = nil, key: Key?) -> Int
    {
        guard let key else { return draw(label, at: point, style: style, maxWidth: maxWidth) }
        return button(label, at: point, style: style, maxWidth: maxWidth, target: .key(key))
    }

    /// Draws `label` as a button clicked as `target`; returns the cells used.
    @discardableResult
    public mutating func button(_ label: String, at point: Point, style: Style, maxWidth: Int? = nil, target: HitTarget)
        -> Int
    {
        let used = draw(label, at: point, style: style, maxWidth: maxWidth)
        addHit(Rect(x: point.x, y: point.y, width: used, height: 1), target)
        return used
    }

    /// Copies the part `source` of `other` to `origin`, with its clickable parts and its
    /// cursor when they fall in that part: how a view taller than the screen scrolls.
    public mutating func blit(_ other: Buffer, from source: Rect, to origin: Point) {
        for dy in 0..<source.height {
            let sy = source.y + dy, ty = origin.y + dy
            guard sy >= 0, sy < other.size.height, ty >= 0, ty < size.height else { continue }
            for dx in 0..<source.width {
                let sx = source.x + dx, tx = origin.x + dx
                guard sx >= 0, sx < other.size.width, tx >= 0, tx < size.width else { continue }
                var cell = other[sx, sy]
                if cell.text.isEmpty, dx == 0 { cell = Cell(text: " ", style: cell.style) }  // half a wide character
                cells[ty * size.width + tx] = cell
            }
        }
        let shift = (x: origin.x - source.x, y: origin.y - source.y)
        for hit in other.hits {
            let visible = Rect(
                x: max(hit.rect.x, source.x), y: max(hit.rect.y, source.y),
                width: min(hit.rect.maxX, source.maxX) - max(hit.rect.x, source.x),
                height: min(hit.rect.maxY, source.maxY) - max(hit.rect.y, source.y))
            if !visible.isEmpty {
                addHit(
                    Rect(x: visible.x + shift.x, y: visible.y + shift.y, width: visible.width, height: visible.height),
                    hit.target)
            }
        }
        for (area, layout) in other.panes {
            var moved = layout
            moved.rect = Rect(
                x: layout.rect.x + shift.x, y: layout.rect.y + shift.y, width: layout.rect.width,
                height: layout.rect.height)
            panes[area] = moved
        }
        for overlay in other.overlays {
            let rect = overlay.rect
            guard rect.x >= source.x, rect.y >= source.y, rect.maxX <= source.maxX, rect.maxY <= source.maxY else {
                continue
            }
            overlays.append(
                PixelOverlay(
                    rect: Rect(x: rect.x + shift.x, y: rect.y + shift.y, width: rect.width, height: rect.height),
                    image: overlay.image, cells: overlay.cells))
        }
        for link in other.hyperlinks
        where link.origin.y >= source.y && link.origin.y < source.maxY && link.origin.x >= source.x
            && link.origin.x + link.cells.count <= source.maxX
        {
            hyperlinks.append(
                Hyperlink(
                    origin: Point(x: link.origin.x + shift.x, y: link.origin.y + shift.y), cells: link.cells,
                    url: link.url))
        }
        if let cursor = other.cursor, source.contains(cursor) {
            self.cursor = Point(x: cursor.x + shift.x, y: cursor.y + shift.y)
        }
        if let focus = other.focus, source.contains(focus) {
            self.focus = Point(x: focus.x + shift.x, y: focus.y + shift.y)
        }
    }

    /// What a click at `point` reaches: the topmost clickable part there.
    public func target(at point: Point) -> HitTarget? { hits.target(at: point) }

    private mutating func put(_ cell: Cell, x: Int, y: Int, width: Int) {
        let row = y * size.width
        // Overwriting half of a wide character blanks its other half.
        if cells[row + x].text.isEmpty, x > 0 { cells[row + x - 1] = Cell(text: " ", style: cells[row + x - 1].style) }
        if x + 1 < size.width, cells[row + x + 1].text.isEmpty, width == 1 { cells[row + x + 1] = Cell() }
        cells[row + x] = cell
        if width == 2 {
            if x + 1 < size.width {
                if x + 2 < size.width, cells[row + x + 2].text.isEmpty { cells[row + x + 2] = Cell() }
                cells[row + x + 1] = .continuation
            } else {
                cells[row + x] = Cell(text: " ", style: cell.style)
            }
        }
    }

    /// The text of one row, wide characters counted once.
    public func line(_ y: Int) -> String {
        var s = ""
        for x in 0..<size.width { s += self[x, y].text }
        return s
    }

    /// The whole grid as text, one line per row, trailing spaces removed: the snapshot format.
    public func text() -> String {
        (0..<size.height).map { line($0).replacingTrailingSpaces() }.joined(separator: "\n")
    }

    /// True when the screen shows `needle` anywhere.
    public func contains(_ needle: String) -> Bool { text().contains(needle) }
}

extension String {
    func replacingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

extension [Hit] {
    /// What a click at `point` reaches: the topmost (last drawn) clickable part there.
    public func target(at point: Point) -> HitTarget? { last { $0.rect.contains(point) }?.target }
}
