import FakeNFTArt
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// The offline image set as the server sends it: PNG bytes drawn on first request for a path,
/// kept (up to ``capacity`` images) with their entity tag.
final class ImageSet: Sendable {
    struct Image: Sendable {
        var png: ByteBuffer
        /// A strong tag over the bytes, so a client's cached copy is reused (304).
        var entityTag: String
    }

    /// Images kept in memory; past it the oldest half is dropped.
    static let capacity = 512

    private let cache = NIOLockedValueBox<(images: [String: Image], order: [String])>(([:], []))

    /// The image for `path` (under `/images/`, percent-decoded), or nil when it is not one.
    func image(for path: String) -> Image? {
        if let cached = cache.withLockedValue({ $0.images[path] }) { return cached }
        guard let raster = Artwork.picture(for: path) else { return nil }
        let bytes = raster.png
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        let image = Image(png: ByteBuffer(bytes: bytes), entityTag: "\"png-\(String(hash, radix: 16))\"")
        cache.withLockedValue { state in
            if state.images.count >= Self.capacity {
                let dropped = state.order.prefix(Self.capacity / 2)
                dropped.forEach { state.images[$0] = nil }
                state.order.removeFirst(dropped.count)
            }
            if state.images.updateValue(image, forKey: path) == nil { state.order.append(path) }
        }
        return image
    }
}
