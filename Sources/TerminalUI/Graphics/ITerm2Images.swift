import Foundation
import ImageEncoding

/// iTerm2 inline images (OSC 1337): a PNG of the picture, shown over `columns` × `rows` cells.
public enum ITerm2Images {
    /// `pixels` (RGBA, `width` × `height`, already fitted to the cells) as an inline image escape.
    public static func encode(rgba pixels: [UInt8], width: Int, height: Int, columns: Int, rows: Int) -> String {
        let png = Data(PNGEncoder.encode(rgba: pixels, width: width, height: height))
        return "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(columns);height=\(rows);preserveAspectRatio=0:"
            + png.base64EncodedString() + "\u{07}"
    }
}
