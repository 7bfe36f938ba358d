import Foundation
import ImageEncoding

/// A screenshot read from an X window dump (`xwd`, 24/32 bits per pixel, either byte order).
struct Screenshot {
    let width: Int, height: Int
    /// RGBA, rows top to bottom.
    let rgba: [UInt8]

    init(xwd data: Data) throws {
        let bytes = [UInt8](data)
        func card32(_ index: Int) -> Int {
            let i = index * 4
            return Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        }
        guard bytes.count > 100 else { throw E2EError("not an xwd file") }
        let headerSize = card32(0), width = card32(4), height = card32(5), byteOrder = card32(7)
        let bitsPerPixel = card32(11), bytesPerLine = card32(12), colours = card32(19)
        let masks = (card32(14), card32(15), card32(16))
        guard bitsPerPixel == 32 || bitsPerPixel == 24 else {
            throw E2EError("xwd with \(bitsPerPixel) bits per pixel")
        }
        let start = headerSize + colours * 12, step = bitsPerPixel / 8
        guard bytes.count >= start + bytesPerLine * height else { throw E2EError("short xwd file") }
        func shift(_ mask: Int) -> Int { mask == 0 ? 0 : mask.trailingZeroBitCount }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = start + y * bytesPerLine + x * step
                var value = 0
                for b in 0..<step { value |= Int(bytes[i + b]) << (byteOrder == 0 ? 8 * b : 8 * (step - 1 - b)) }
                let o = (y * width + x) * 4
                rgba[o] = UInt8((value & masks.0) >> shift(masks.0))
                rgba[o + 1] = UInt8((value & masks.1) >> shift(masks.1))
                rgba[o + 2] = UInt8((value & masks.2) >> shift(masks.2))
            }
        }
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    var png: [UInt8] { PNGEncoder.encode(rgba: rgba, width: width, height: height) }

    /// Mean difference per channel (0-255) between the part of the screen at (`x`, `y`) and
    /// `pixels` (RGBA, `size`).
    func difference(at x: Int, _ y: Int, from pixels: [UInt8], size: (width: Int, height: Int)) -> Double {
        var total = 0, count = 0
        for row in stride(from: 0, to: size.height, by: 2) where y + row < height {
            for column in stride(from: 0, to: size.width, by: 2) where x + column < width {
                let s = ((y + row) * width + x + column) * 4, p = (row * size.width + column) * 4
                total +=
                    abs(Int(rgba[s]) - Int(pixels[p])) + abs(Int(rgba[s + 1]) - Int(pixels[p + 1]))
                    + abs(Int(rgba[s + 2]) - Int(pixels[p + 2]))
                count += 3
            }
        }
        return count == 0 ? 255 : Double(total) / Double(count)
    }
}
