import CZlib

/// PNG files from RGBA pixels: 8-bit RGB (alpha dropped), no interlacing, zlib at a fixed
/// level, so the same pixels always give the same bytes.
public enum PNGEncoder {
    /// `pixels` (`width` × `height`, RGBA) as a PNG file.
    public static func encode(rgba pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        var rows = [UInt8]()
        rows.reserveCapacity(height * (width * 3 + 1))
        for y in 0..<height {
            rows.append(0)  // filter: none
            for x in 0..<width {
                let i = (y * width + x) * 4
                rows.append(contentsOf: pixels[i..<i + 3])
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = [UInt8]()
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, adaptive filtering, no interlace
        chunk("IHDR", header, into: &png)
        chunk("IDAT", Deflate.compress(rows), into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    private static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        png += bigEndian(UInt32(data.count))
        png += typeBytes
        png += data
        let crc = (typeBytes + data).withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        png += bigEndian(UInt32(crc))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
