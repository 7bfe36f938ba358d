import FakeNFTArt
import FakeNFTCore
@testable import FakeNFTServer
import Foundation
import Testing
import FakeNFTTesting

/// The offline image set: drawn by code, served as PNG with caching headers, and linked from
/// the API's image fields.
@Suite struct ImageTests {
    /// The PNG signature and the IHDR's width and height.
    func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        func be(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    @Test func imagesAreServedWithTypeTagAndCaching() async throws {
        try await TestServer.with { server async throws in
            let nft = try await server.client().nft(id: "1")
            let link = try #require(nft.images.first)
            #expect(
                link == server.baseURL.absoluteString + "/images/Mobile/iOS/NFT/Beige/April/1.png",
                "points at this server")
            let path = String(link.dropFirst(server.baseURL.absoluteString.count))
            let first = try await server.exchange("GET", path)
            #expect(first.status == 200 && first.headers["content-type"] == "image/png")
            #expect(first.headers["cache-control"]?.contains("max-age=31536000") == true)
            #expect(pngSize(first.body).map { [$0.width, $0.height] } == [Artwork.size, Artwork.size])
            let tag = try #require(first.headers["etag"])
            // Raw requests: URLSession would answer a 304 from its own cache.
            let again = try await RawConnection.exchange(
                port: server.port,
                "GET \(path) HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(tag)\r\nConnection: close\r\n\r\n")
            #expect(again.text.hasPrefix("HTTP/1.1 304") && again.text.hasSuffix("\r\n\r\n"), "\(again.text)")
            let head = try await RawConnection.exchange(
                port: server.port, "HEAD \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(
                head.text.hasPrefix("HTTP/1.1 200")
                    && head.text.lowercased().contains("content-length: \(first.body.count)\r\n")
                    && head.text.hasSuffix("\r\n\r\n"),
                "\(head.text)")
            #expect(try await server.request("GET", "/images/Mobile/iOS/NFT/Beige/April/1.gif").status == 404)
            #expect(try await server.request("GET", "/images/etc/passwd").status == 404)
            #expect(try await server.request("GET", "/images/Mobile/iOS/NFT/../../x.png").status == 404)
        }
    }

    /// Every image field of the API (NFT images, covers, avatars, currency logos) is served.
    @Test func everyLinkedImageExists() async throws {
        try await TestServer.with { server async throws in
            let api = server.client()
            var links = try await api.collections(page: 0, size: 100).map(\.cover)
            links += try await api.currencies().map(\.image)
            links += try await api.users(page: 0, size: 5).map(\.avatar)
            links += try await api.nft(id: "50").images
            links.append(try await api.profile().avatar)
            let base = server.baseURL.absoluteString
            for link in links {
                #expect(link.hasPrefix(base + "/images/"), "\(link)")
                let path =
                    String(link.dropFirst(base.count)).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
                    ?? ""
                let answer = try await server.request("GET", path)
                #expect(answer.status == 200 && pngSize(answer.body) != nil, "\(link)")
            }
        }
    }

    @Test func upstreamLinksAndAPublicURL() async throws {
        try await TestServer.with(imageLinks: .upstream) { server async throws in
            #expect(
                try await server.client().nft(id: "1").images.first
                    == "https://code.s3.yandex.net/Mobile/iOS/NFT/Beige/April/1.png")
        }
        try await TestServer.with(imageLinks: .local(publicURL: URL(string: "http://10.1.2.3:9000/"))) {
            server async throws in
            #expect(
                try await server.client().nft(id: "1").images.first
                    == "http://10.1.2.3:9000/images/Mobile/iOS/NFT/Beige/April/1.png")
        }
    }

    /// The request's Host names the links; one that could break out of a URL is not used.
    @Test func linksFollowTheRequestsHostSafely() async throws {
        try await TestServer.with { server async throws in
            let named = try await RawConnection.exchange(
                port: server.port, "GET /api/v1/nft/1 HTTP/1.1\r\nHost: phone.local:8080\r\nConnection: close\r\n\r\n")
            #expect(named.text.contains("http://phone.local:8080/images/Mobile/"))
            let hostile = try await RawConnection.exchange(
                port: server.port, "GET /api/v1/nft/1 HTTP/1.1\r\nHost: evil\"x/<y>\r\nConnection: close\r\n\r\n")
            #expect(!hostile.text.contains("evil") && hostile.text.contains("/images/Mobile/"), "\(hostile.text)")
        }
    }

    /// Pictures, not noise: the same path gives the same pixels; an NFT's three images share
    /// their subject's colour; the Beige collection's pictures are beige around the subject.
    @Test func picturesAreDeterministicAndInTheirCollectionsColour() throws {
        let one = try #require(Artwork.picture(for: "Mobile/iOS/NFT/Beige/April/1.png"))
        #expect(one == Artwork.picture(for: "Mobile/iOS/NFT/Beige/April/1.png"))
        #expect(one.png == one.png)
        let corner = one.color(x: 20, y: 20), beige = RGB(hex: 0xE3CBA5)
        #expect(
            abs(corner.r - beige.r) < 0.2 && abs(corner.g - beige.g) < 0.2 && abs(corner.b - beige.b) < 0.2, "\(corner)"
        )
        let centre = (1...3).map { Artwork.picture(for: "Mobile/iOS/NFT/Beige/April/\($0).png")!.color(x: 128, y: 140) }
        for other in centre.dropFirst() {
            #expect(
                abs(other.r - centre[0].r) + abs(other.g - centre[0].g) + abs(other.b - centre[0].b) < 0.45,
                "the same subject")
        }
        let colours = Set(
            (0..<64).map { i in one.color(x: (i % 8) * 32 + 16, y: (i / 8) * 32 + 16) }.map {
                "\(Int($0.r * 15))\(Int($0.g * 15))\(Int($0.b * 15))"
            })
        #expect(colours.count > 8, "shaded, not flat")
        #expect(
            Artwork.picture(for: "Mobile/iOS/NFT/Blue/April/1.png")!.color(x: 20, y: 20).b > corner.b, "Blue is bluer")
    }
}
