import Localization
import TerminalUI

/// A picture in a rectangle: the image at a link in pixels or as character art once it has arrived, a
/// neutral placeholder (with the initial of `label`) until then or without colours. Drawing it
/// asks for it: the shell passes the frame's pictures on to ``Pictures``.
@MainActor
public struct PictureView: Widget {
    public var link: String
    public var label: String
    public var pictures: Pictures

    public init(_ link: String, label: String = "", pictures: Pictures) {
        self.link = link
        self.label = label
        self.pictures = pictures
    }

    public func render(in rect: Rect, buffer: inout Buffer) {
        guard rect.width > 0, rect.height > 0 else { return }
        if pictures.palette != nil, !link.isEmpty { buffer.want(picture: link) }
        switch pictures.drawing(for: link, size: Size(width: rect.width, height: rect.height)) {
        case .cells(let cells):
            buffer.place(cells, columns: rect.width, at: Point(x: rect.x, y: rect.y))
            return
        case .overlay(let cells, let image):
            buffer.place(cells, columns: rect.width, at: Point(x: rect.x, y: rect.y), overlay: image)
            return
        case nil:
            break
        }
        if buffer.forScreenReader {  // a screen reader reads the picture's name, not shade glyphs
            for (i, line) in Self.nameLines(of: label, width: rect.width, maxLines: rect.height).enumerated() {
                buffer.draw(line, at: Point(x: rect.x, y: rect.y + i), style: .dim, maxWidth: rect.width)
            }
            return
        }
        buffer.fill(rect, with: "░", style: .dim)
        if let initial = label.first {
            buffer.draw(
                String(initial).uppercased(),
                at: Point(x: rect.x + (rect.width - 1) / 2, y: rect.y + (rect.height - 1) / 2),
                style: .bold, maxWidth: 1)
        }
    }

    /// The picture of `label` as read aloud ("Picture: Peach"), in at most `maxLines` lines of
    /// `width`: a word is never split nor shortened (a screen reader would read a piece of one as
    /// a word). Where that does not fit, the label alone; where that does not fit either, its
    /// first words that fit whole, and "…" where it fits; where none does, nothing.
    nonisolated static func nameLines(of label: String, width: Int, maxLines: Int) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        for text in [tr(.pictureNamed, label), label] {
            let (lines, whole) = wholeWords(of: text, width: width, maxLines: maxLines)
            if whole { return lines }
        }
        var lines = wholeWords(of: label, width: width, maxLines: maxLines).lines
        if let last = lines.indices.last, DisplayWidth.of(lines[last]) < width { lines[last] += "…" }
        return lines
    }

    /// The first words of `text` that fit whole in at most `maxLines` lines of `width`, and
    /// whether they are all of them.
    private nonisolated static func wholeWords(of text: String, width: Int, maxLines: Int) -> (
        lines: [String], whole: Bool
    ) {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ").map(String.init) {
            let joined = line.isEmpty ? word : line + " " + word
            if DisplayWidth.of(joined) <= width {
                line = joined
                continue
            }
            guard !line.isEmpty, DisplayWidth.of(word) <= width, lines.count + 1 < maxLines else {
                return (line.isEmpty ? lines : lines + [line], false)
            }
            lines.append(line)
            line = word
        }
        return (line.isEmpty ? lines : lines + [line], true)
    }
}
