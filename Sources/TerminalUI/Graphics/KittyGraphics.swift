import Foundation
import ImageEncoding

/// The kitty graphics protocol with Unicode placeholders: an image is sent once with a virtual
/// placement of `columns` × `rows` cells, then shown by ordinary text cells (U+10EEEE, a row
/// mark and a column mark, the image id as the 256-colour foreground), so the frame's diff,
/// clipping and dialogs treat it like any text.
public enum KittyGraphics {
    /// Image ids: ones a frame always writes as `38;5;N` (0-15 may be written as `3N`/`9N`).
    public static let ids: ClosedRange<UInt8> = 16...255
    /// The placeholder character.
    public static let placeholder: Unicode.Scalar = "\u{10EEEE}"
    /// The largest picture in cells, either way (the row and column marks there are).
    public static var maxCells: Int { KittyDiacritics.marks.count }
    /// Base64 characters per escape (the protocol's limit).
    static let chunkSize = 4096

    /// The escapes that send `pixels` (RGBA, `width` × `height`) as image `id` placed over
    /// `columns` × `rows` cells: compressed, in chunks, quiet (`q=2`: no answer reaches input).
    public static func upload(id: UInt8, rgba pixels: [UInt8], width: Int, height: Int, columns: Int, rows: Int)
        -> String
    {
        let payload = Data(Deflate.compress(pixels)).base64EncodedString()
        var out = ""
        out.reserveCapacity(payload.utf8.count + payload.utf8.count / chunkSize * 24 + 96)
        var start = payload.startIndex
        var first = true
        repeat {
            let end = payload.index(start, offsetBy: chunkSize, limitedBy: payload.endIndex) ?? payload.endIndex
            let more = end < payload.endIndex ? 1 : 0
            let keys =
                first
                ? "a=T,U=1,q=2,f=32,o=z,s=\(width),v=\(height),i=\(id),c=\(columns),r=\(rows),m=\(more)"
                : "q=2,m=\(more)"
            out += "\u{1B}_G\(keys);\(payload[start..<end])\u{1B}\\"
            start = end
            first = false
        } while start < payload.endIndex
        return out
    }

    /// The escape that deletes image `id` and frees its pixels.
    public static func delete(id: UInt8) -> String { "\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\" }

    /// The cells showing image `id` over `columns` × `rows`, row by row.
    public static func cells(id: UInt8, columns: Int, rows: Int) -> [Cell] {
        let marks = KittyDiacritics.marks
        guard columns > 0, rows > 0, columns <= marks.count, rows <= marks.count else { return [] }
        let style = Style(foreground: .indexed(id))
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                var scalars = String.UnicodeScalarView()
                scalars.append(placeholder)
                scalars.append(marks[row])
                scalars.append(marks[column])
                cells.append(Cell(text: String(scalars), style: style))
            }
        }
        return cells
    }
}
