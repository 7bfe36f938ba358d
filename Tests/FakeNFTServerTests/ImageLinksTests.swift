import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import FakeNFTServer

/// The link rewrite every answer naming images goes through, against plain string replacement.
@Suite struct ImageLinksTests {
    private static func rewritten(_ text: String) -> String {
        let buffer = ImageLinks.replacing(
            ImageLinks.upstreamPrefixes, with: "http://h/images/", in: ByteBuffer(string: text))
        return String(buffer: buffer)
    }

    private static func expected(_ text: String) -> String {
        ImageLinks.upstreamPrefixes.reduce(text) { $0.replacingOccurrences(of: $1, with: "http://h/images/") }
    }

    @Test func everyUpstreamLinkIsRewrittenAndNothingElse() {
        let cases = [
            "", "https://", "https://code.s3.yandex.net", "https://code.s3.yandex.net/",
            #"["https://code.s3.yandex.net/a.png","https://cloudflare-ipfs.com/b.jpg"]"#,
            "xhttps://https://cloudflare-ipfs.com/https://code.s3.yandex.net/",
            "http://code.s3.yandex.net/ https://example.com/ ж https://cloudflare-ipfs.com",
        ]
        for text in cases { #expect(Self.rewritten(text) == Self.expected(text), "\(text)") }
        let pieces = ["https://", "https://code.s3.yandex.net/", "https://cloudflare-ipfs.com/", "h", "é", "x/", "\""]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...10)).map { _ in pieces.randomElement()! }.joined()
            #expect(Self.rewritten(text) == Self.expected(text), "\(text)")
        }
    }

    @Test func aHostThatIsNotPlainASCIIIsNotUsed() {
        func host(_ authority: String) -> String {
            ImageLinks.host(
                of: HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/"), fallback: "server:1")
        }
        #expect(host("example.com:8080") == "example.com:8080")
        #expect(host("[::1]:80") == "[::1]:80")
        #expect(host("пример.рф") == "server:1")
        #expect(host("a\"b") == "server:1")
        #expect(host("a/b") == "server:1")
    }
}
