import CZlib

/// zlib compression (the zlib format, level 6).
public enum Deflate {
    public static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(bytes.count), 6)
            }
        }
        precondition(status == Z_OK, "zlib compress2 failed: \(status)")  // only on out-of-memory
        return Array(out.prefix(Int(length)))
    }
}
