/// A picture ready to draw: RGBA pixels, 8 bits per channel, rows top to bottom.
public struct DecodedImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes.
    public let rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The image shrunk (by averaging boxes of pixels) so its longer side is at most `side`.
    public func shrunk(toFit side: Int) -> DecodedImage {
        let longer = max(width, height)
        guard longer > side, side > 0 else { return self }
        let w = max(1, width * side / longer), h = max(1, height * side / longer)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let y0 = y * height / h, y1 = max(y0 + 1, (y + 1) * height / h)
            for x in 0..<w {
                let x0 = x * width / w, x1 = max(x0 + 1, (x + 1) * width / w)
                var sum = (0, 0, 0, 0)
                for sy in y0..<y1 {
                    var i = (sy * width + x0) * 4
                    for _ in x0..<x1 {
                        sum.0 += Int(rgba[i])
                        sum.1 += Int(rgba[i + 1])
                        sum.2 += Int(rgba[i + 2])
                        sum.3 += Int(rgba[i + 3])
                        i += 4
                    }
                }
                let n = (y1 - y0) * (x1 - x0), o = (y * w + x) * 4
                out[o] = UInt8(sum.0 / n)
                out[o + 1] = UInt8(sum.1 / n)
                out[o + 2] = UInt8(sum.2 / n)
                out[o + 3] = UInt8(sum.3 / n)
            }
        }
        return DecodedImage(width: w, height: h, rgba: out)
    }
}
