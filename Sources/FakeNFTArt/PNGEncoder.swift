import CZlib

/// PNG files from rasters: 8-bit RGB, no interlacing, zlib at a fixed level, so the same raster
/// always gives the same bytes.
public enum PNGEncoder {
    public static func encode(_ raster: Raster) -> [UInt8] {
        var rows = [UInt8]()
        rows.reserveCapacity(raster.height * (raster.width * 3 + 1))
        for y in 0..<raster.height {
            rows.append(0)   // filter: none
            for x in 0..<raster.width {
                let i = (y * raster.width + x) * 4
                rows.append(contentsOf: raster.pixels[i..<i + 3])
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = [UInt8]()
        header += bigEndian(UInt32(raster.width))
        header += bigEndian(UInt32(raster.height))
        header += [8, 2, 0, 0, 0]   // 8 bits, RGB, deflate, adaptive filtering, no interlace
        chunk("IHDR", header, into: &png)
        chunk("IDAT", deflate(rows), into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    private static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(bytes.count), 6)
            }
        }
        precondition(status == Z_OK, "zlib compress2 failed: \(status)")   // only on out-of-memory
        return Array(out.prefix(Int(length)))
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
