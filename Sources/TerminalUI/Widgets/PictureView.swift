/// A small picture drawn with half blocks ("▀": top pixel in the foreground colour, bottom
/// pixel in the background colour), so a cell holds two pixels.
///
/// Until real image decoding arrives, the picture is art derived from a seed string (the image
/// URL): the same seed always gives the same picture. Without colours it draws a plain
/// placeholder with the seed's initial.
@MainActor
public enum PictureView {
    public static func render(seed: String, label: String = "", in rect: Rect, colors: Bool, buffer: inout Buffer) {
        guard rect.width > 0, rect.height > 0 else { return }
        guard colors else {
            placeholder(label: label, in: rect, buffer: &buffer)
            return
        }
        let art = PixelArt(seed: seed, width: rect.width, height: rect.height * 2)
        for row in 0..<rect.height {
            for column in 0..<rect.width {
                let top = art.color(x: column, y: row * 2), bottom = art.color(x: column, y: row * 2 + 1)
                buffer.draw("▀", at: Point(x: rect.x + column, y: rect.y + row),
                             style: Style(foreground: top, background: bottom), maxWidth: 1)
            }
        }
    }

    static func placeholder(label: String, in rect: Rect, buffer: inout Buffer) {
        buffer.fill(rect, with: "░", style: .dim)
        if let initial = label.first, rect.height > 0 {
            buffer.draw(String(initial).uppercased(), at: Point(x: rect.x + (rect.width - 1) / 2, y: rect.y + (rect.height - 1) / 2),
                         style: .bold, maxWidth: 1)
        }
    }
}

/// Deterministic, mirror-symmetric pixel art from a seed: a background, a body colour and an accent.
struct PixelArt {
    let width: Int
    let height: Int
    private let hash: UInt64
    private let palette: [Color]

    init(seed: String, width: Int, height: Int) {
        self.width = width
        self.height = height
        var h: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a
        for byte in seed.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = h
        func cube(_ shift: UInt64) -> Color {
            let v = h >> shift
            let r = Int(v % 6), g = Int((v >> 3) % 6), b = Int((v >> 6) % 6)
            let index: Int = 16 + 36 * r + 6 * g + b
            return .indexed(UInt8(index))
        }
        palette = [.indexed(UInt8(232 + Int((h >> 50) % 6))), cube(8), cube(24)]
    }

    func color(x: Int, y: Int) -> Color {
        let mirrored = min(x, width - 1 - x)
        let cellsPerSide = max(1, (width + 1) / 2)
        // A coarse 4-pixel grid keeps shapes recognisable at small sizes.
        let gx = mirrored * 4 / cellsPerSide, gy = y * 6 / max(1, height)
        var bits = hash &+ UInt64(gx * 7 + gy * 31) &* 0x9E37_79B9_7F4A_7C15
        bits ^= bits >> 29
        let v = Int(bits % 7)
        return v < 3 ? palette[0] : (v < 6 ? palette[1] : palette[2])
    }
}
