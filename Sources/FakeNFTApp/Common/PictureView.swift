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
            for (i, line) in Self.nameLines(tr(.pictureNamed, label), width: rect.width, maxLines: rect.height)
                .enumerated()
            {
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

    /// A picture's name as read aloud, in at most `maxLines` lines of `width`: a word is never
    /// split across lines (a screen reader would read its halves as two words); one too long for
    /// a line, and the last line when the name goes on, are shortened with "…".
    nonisolated static func nameLines(_ name: String, width: Int, maxLines: Int) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        let words = name.split(separator: " ").map { DisplayWidth.truncate(String($0), to: width) }
        let lines = DisplayWidth.wrap(words.joined(separator: " "), width: width)
        guard lines.count > maxLines else { return lines }
        let rest = lines[(maxLines - 1)...].joined(separator: " ")
        return lines.prefix(maxLines - 1) + [DisplayWidth.truncate(rest, to: width)]
    }
}
