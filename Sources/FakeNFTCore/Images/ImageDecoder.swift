import CImageDecode
import Foundation

/// Why a picture cannot be shown.
public struct ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// PNG and JPEG from untrusted bytes: the format is taken from the first bytes (never the URL or
/// a header), and sizes are checked before anything is allocated.
public enum ImageDecoder {
    /// The largest body read for a picture.
    public static let maxBytes = 8 * 1024 * 1024
    /// The largest side and area decoded (a PNG is decoded whole: at most 16 MB of pixels; a
    /// JPEG at a fraction of its size, and libjpeg may take 24 MB).
    public static let maxSide = 4096
    public static let maxPixels = 4_194_304
    /// The longer side pictures are kept at once decoded: enough for the largest picture drawn.
    public static let keptSide = 256

    /// The picture in `data`, shrunk to ``keptSide``; throws ``ImageError`` for anything else.
    public static func decode(_ data: Data) throws(ImageError) -> DecodedImage {
        guard data.count <= maxBytes else {
            throw ImageError("the image is larger than \(maxBytes / (1024 * 1024)) MB")
        }
        var image = fakenft_image()
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { bytes in
            fakenft_decode(
                bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int32(maxSide), maxPixels, Int32(keptSide),
                &image, &message, message.count)
        }
        guard status == 0, let pixels = image.pixels else {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw ImageError(reason.isEmpty ? "the image cannot be decoded" : reason)
        }
        defer { fakenft_image_free(&image) }
        let width = Int(image.width), height = Int(image.height)
        let decoded = DecodedImage(
            width: width, height: height, rgba: Array(UnsafeBufferPointer(start: pixels, count: width * height * 4)))
        return decoded.shrunk(toFit: keptSide)
    }
}
