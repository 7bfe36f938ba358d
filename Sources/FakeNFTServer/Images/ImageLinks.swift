import Foundation
import HTTPTypes
import NIOCore

/// Where the API's image fields point. The data set names images on the real FakeNFT hosts;
/// by default the server points them at its own `/images/…` (the same path after it), so the
/// apps get pictures offline.
public enum ImageLinks: Sendable, Hashable {
    /// At this server: under `publicURL` when given, else under the host the request named.
    case local(publicURL: URL?)
    /// The real data set's URLs, unchanged (`--upstream-images`).
    case upstream

    /// The hosts the data set's images live on; their URLs are rewritten.
    static let upstreamPrefixes = ["https://code.s3.yandex.net/", "https://cloudflare-ipfs.com/"]

    /// `json` with every upstream image URL pointing under `<base>/images/` (``base(for:serverHost:)``).
    func rewrite(_ json: ByteBuffer, for request: HTTPRequest, serverHost: String) -> ByteBuffer {
        Self.rewrite(json, base: base(for: request, serverHost: serverHost))
    }

    /// Where `request`'s image links point (what comes before `/images/`); nil: upstream, unchanged.
    func base(for request: HTTPRequest, serverHost: String) -> String? {
        guard case .local(let publicURL) = self else { return nil }
        return publicURL.map {
            $0.absoluteString.hasSuffix("/") ? String($0.absoluteString.dropLast()) : $0.absoluteString
        } ?? "http://" + Self.host(of: request, fallback: serverHost)
    }

    /// `json` with every upstream image URL pointing under `<base>/images/`; unchanged when `base` is nil.
    static func rewrite(_ json: ByteBuffer, base: String?) -> ByteBuffer {
        guard let base else { return json }
        return replacing(upstreamPrefixes, with: base + "/images/", in: json)
    }

    /// The request's `Host` when it is a plain host and port (ASCII letters, digits and `.-:[]`:
    /// nothing that could break out of a URL), else the server's own address.
    static func host(of request: HTTPRequest, fallback: String) -> String {
        guard let host = request.authority, !host.isEmpty, host.utf8.count <= 255,
            host.utf8.allSatisfy({ byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"),
                    UInt8(ascii: "["), UInt8(ascii: "]"):
                    true
                default: false
                }
            })
        else {
            return fallback
        }
        return host
    }

    /// `buffer` with each occurrence of any of `prefixes` (`https://` addresses) replaced
    /// by `replacement`; the same buffer, uncopied, when there is none.
    static func replacing(_ prefixes: [String], with replacement: String, in buffer: ByteBuffer) -> ByteBuffer {
        let patterns = prefixes.map { Array($0.utf8) }
        return buffer.withUnsafeReadableBytes { bytes -> ByteBuffer in
            guard let base = bytes.baseAddress else { return buffer }
            var out: ByteBuffer?
            var start = 0, i = 0
            // memchr finds each candidate's first byte; memcmp checks the rest
            while i < bytes.count, let found = memchr(base + i, Int32(UInt8(ascii: "h")), bytes.count - i) {
                let at = base.distance(to: UnsafeRawPointer(found))
                guard
                    let pattern = patterns.first(where: {
                        bytes.count - at >= $0.count && memcmp(base + at, $0, $0.count) == 0
                    })
                else {
                    i = at + 1
                    continue
                }
                if out == nil {
                    out = ByteBuffer()
                    out?.reserveCapacity(bytes.count + 512)
                }
                out?.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[start..<at]))
                out?.writeString(replacement)
                i = at + pattern.count
                start = i
            }
            guard var result = out else { return buffer }
            result.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[start...]))
            return result
        }
    }
}
