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

    /// `json` with every upstream image URL pointing under `<base>/images/`.
    func rewrite(_ json: ByteBuffer, for request: HTTPRequest, serverHost: String) -> ByteBuffer {
        guard case .local(let publicURL) = self else { return json }
        let base =
            publicURL.map {
                $0.absoluteString.hasSuffix("/") ? String($0.absoluteString.dropLast()) : $0.absoluteString
            }
            ?? "http://" + Self.host(of: request, fallback: serverHost)
        return Self.replacing(Self.upstreamPrefixes, with: base + "/images/", in: json)
    }

    /// The request's `Host` when it is a plain host and port (nothing that could break out of a
    /// URL), else the server's own address.
    static func host(of request: HTTPRequest, fallback: String) -> String {
        guard let host = request.authority, !host.isEmpty, host.utf8.count <= 255,
            host.unicodeScalars.allSatisfy({
                CharacterSet.alphanumerics.contains($0) || ".-:[]".unicodeScalars.contains($0)
            })
        else {
            return fallback
        }
        return host
    }

    /// `buffer` with each occurrence of any of `prefixes` replaced by `replacement`; the same
    /// buffer, uncopied, when there is none.
    static func replacing(_ prefixes: [String], with replacement: String, in buffer: ByteBuffer) -> ByteBuffer {
        let patterns = prefixes.map { Array($0.utf8) }
        return buffer.withUnsafeReadableBytes { bytes -> ByteBuffer in
            var out: ByteBuffer?
            var start = 0, i = 0
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "h"),
                    let pattern = patterns.first(where: {
                        bytes.count - i >= $0.count && bytes[i..<i + $0.count].elementsEqual($0)
                    })
                {
                    if out == nil {
                        out = ByteBuffer()
                        out?.reserveCapacity(bytes.count + 512)
                    }
                    out?.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
                    out?.writeString(replacement)
                    i += pattern.count
                    start = i
                } else {
                    i += 1
                }
            }
            guard var result = out else { return buffer }
            result.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[start...]))
            return result
        }
    }
}
