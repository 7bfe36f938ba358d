/// A run of text in one style: plain, a web link, or a button a click presses.
public struct Span: Sendable {
    public var text: String
    public var style: Style
    /// A web link (already checked as one) the text leads to.
    public var link: String?
    /// The key a click on it presses: a button, never broken across rows.
    public var key: Key?
    /// Whether the terminal's cursor rests on its first cell (where a screen reader reads).
    public var isFocus: Bool

    public init(_ text: String, style: Style = .plain, link: String? = nil, isFocus: Bool = false) {
        self.text = text
        self.style = style
        self.link = link
        key = nil
        self.isFocus = isFocus
    }

    /// `cells` blank cells that hold the spans either side on one row (no row breaks at them).
    public static func gap(_ cells: Int) -> Span { Span(String(repeating: Paragraph.heldSpace, count: max(0, cells))) }

    /// A button: `label`, clicked as `key` (a plain span when there is none).
    public static func button(_ label: String, style: Style, key: Key?, isFocus: Bool = false) -> Span {
        var span = Span(label, style: style, isFocus: isFocus)
        span.key = key
        return span
    }
}

/// One line of a ``Paragraph``: its spans, where its rows sit in the width, and whether it
/// wraps (else it is one row, cut with "…").
public struct Line: Sendable {
    public enum Alignment: Sendable { case leading, center, trailing }

    public var spans: [Span]
    public var alignment: Alignment
    public var wraps: Bool

    public init(_ spans: [Span], alignment: Alignment = .leading, wraps: Bool = true) {
        self.spans = spans
        self.alignment = alignment
        self.wraps = wraps
    }

    /// A line of one span.
    public init(_ text: String, style: Style = .plain, alignment: Alignment = .leading, wraps: Bool = true) {
        self.init([Span(text, style: style)], alignment: alignment, wraps: wraps)
    }

    /// An empty row.
    public static let blank = Line([])
}

/// Lines of styled spans, each wrapped at spaces to its rect's width (a word longer than a row
/// broken, a button kept whole; runs of spaces one; a newline a new row) or, one that does not
/// wrap, cut with "…"; the rows beyond the rect's height left out. Text from outside is drawn
/// inert (``Buffer/draw(_:at:style:maxWidth:)``). The one way the app lays out text of more than
/// one style or more than one row.
public struct Paragraph: Widget {
    public var lines: [Line]

    public init(_ lines: [Line]) { self.lines = lines }

    /// The rows it takes at `width`, unclipped (counted up to `most`: a huge text is wrapped only
    /// as far as that).
    public func height(width: Int, most: Int = .max) -> Int { rows(width: width, most: most).count }

    public func render(in rect: Rect, buffer: inout Buffer) {
        guard rect.width > 0, rect.height > 0 else { return }
        for (index, row) in rows(width: rect.width, most: rect.height).enumerated() {
            var x =
                switch row.alignment {
                case .leading: rect.x
                case .center: rect.x + max(0, rect.width - row.width) / 2
                case .trailing: rect.x + max(0, rect.width - row.width)
                }
            let y = rect.y + index
            for piece in row.pieces where x < rect.maxX {
                let point = Point(x: x, y: y), room = rect.maxX - x, span = lines[piece.line].spans[piece.span]
                if span.isFocus, piece.first { buffer.focus = point }
                if let key = span.key {
                    x += buffer.button(piece.text, at: point, style: span.style, maxWidth: room, key: key)
                } else if let link = span.link {
                    x += buffer.draw(piece.text, at: point, style: span.style, maxWidth: room, link: link)
                } else {
                    x += buffer.draw(piece.text, at: point, style: span.style, maxWidth: room)
                }
            }
        }
    }

    /// Part of a span (of `line`) placed on a row; `first` when it begins the span.
    struct Piece: Equatable {
        var text: String
        var line: Int
        var span: Int
        var first: Bool
    }

    struct Row: Equatable {
        var pieces: [Piece] = []
        var alignment: Line.Alignment
        var width: Int { pieces.reduce(0) { $0 + DisplayWidth.of($1.text) } }
    }

    /// The rows of the lines at `width`, the first `most` of them. A line that wraps is wrapped as
    /// one text by ``DisplayWidth/wrap(_:width:maxLines:)`` (a button's spaces held fast), and each
    /// row's characters are given back to the spans they came from.
    func rows(width: Int, most: Int = .max) -> [Row] {
        guard width > 0 else { return [] }
        var rows: [Row] = []
        for (number, line) in lines.enumerated() where rows.count < most {
            guard line.wraps else {
                let pieces = line.spans.enumerated().map {
                    let shown = Self.visible($1.text, rows: 1, width: width)
                    let text = SafeText.sanitize(String(shown)).replacingOccurrences(of: Self.heldSpace, with: " ")
                    return Piece(text: text, line: number, span: $0, first: true)
                }
                rows.append(Row(pieces: pieces, alignment: line.alignment))
                continue
            }
            let texts = line.spans.map { span in
                let shown = Self.visible(span.text, rows: most - rows.count, width: width)
                let text = SafeText.sanitize(String(shown), keepNewlines: span.key == nil)
                return span.key == nil ? text : text.replacingOccurrences(of: " ", with: Self.heldSpace)
            }
            // each character of the whole text, with its span; spaces and newlines are where rows may break
            let owners = texts.enumerated().flatMap { index, text in text.map { (character: $0, span: index) } }
            var next = owners.startIndex, seen = Set<Int>()
            let wrapped = DisplayWidth.wrap(texts.joined(), width: width, maxLines: most - rows.count)
            for text in wrapped.isEmpty ? [""] : wrapped {
                var row = Row(alignment: line.alignment)
                for character in text {
                    var span = row.pieces.last?.span ?? 0
                    if character != " " {
                        while next < owners.endIndex, owners[next].character == " " || owners[next].character == "\n" {
                            next += 1
                        }
                        if next < owners.endIndex { span = owners[next].span }
                        next += 1
                    }
                    let shown = character == Self.heldSpace.first ? " " : character
                    if let last = row.pieces.last, last.span == span {
                        row.pieces[row.pieces.count - 1].text.append(shown)
                    } else {
                        row.pieces.append(
                            Piece(text: String(shown), line: number, span: span, first: seen.insert(span).inserted))
                    }
                }
                rows.append(row)
            }
        }
        return rows
    }

    /// The start of `text` that `rows` rows of `width` cells can show (a few characters a cell,
    /// for combining marks and runs of spaces), so that a huge text costs a frame what it shows.
    private static func visible(_ text: String, rows: Int, width: Int) -> Substring {
        let (cells, overflow) = max(1, rows).multipliedReportingOverflow(by: width + 1)
        return overflow || cells > Int.max / 4 ? text[...] : text.prefix(cells * 4)
    }

    /// A space no row breaks at (a button's, a gap's), shown as a space.
    nonisolated static let heldSpace = "\u{00A0}"
}
