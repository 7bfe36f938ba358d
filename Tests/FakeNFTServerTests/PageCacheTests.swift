import FakeNFTModels
import FakeNFTTesting
import Foundation
import NIOCore
import Testing

@testable import FakeNFTServer

/// List pages are kept as answered: made once per table revision, query and link base, never
/// found for another, and bounded in count and size.
@Suite struct PageCacheTests {
    @Test func aPageIsMadeOncePerKeyAndTheCacheStaysBounded() {
        let cache = PageCache()
        var made = 0
        func page(_ key: PageCache.Key, bytes: Int = 10) -> ByteBuffer {
            cache.page(key) {
                made += 1
                return ByteBuffer(repeating: UInt8(ascii: "x"), count: bytes)
            }
        }
        let key = PageCache.Key(table: 1, query: "page=0&size=20", base: "http://a")
        _ = page(key)
        _ = page(key)
        #expect(made == 1, "asked again: found")
        for changed in [
            PageCache.Key(table: 2, query: key.query, base: key.base),
            PageCache.Key(table: 1, query: "page=1&size=20", base: key.base),
            PageCache.Key(table: 1, query: key.query, base: "http://b"),
        ] {
            _ = page(changed)
        }
        #expect(made == 4, "another revision, query or base is another page")
        let large = PageCache.Key(table: 3, query: "", base: "")
        _ = page(large, bytes: PageCache.largestPage + 1)
        _ = page(large, bytes: PageCache.largestPage + 1)
        #expect(made == 6, "a page past the largest kept is made each time")
        let long = PageCache.Key(table: 3, query: String(repeating: "a", count: PageCache.longestQuery + 1), base: "")
        _ = page(long)
        _ = page(long)
        #expect(made == 8, "a page asked with a query past the longest kept is made each time")
        for query in 0..<(PageCache.capacity * 3) {
            _ = page(PageCache.Key(table: 4, query: String(query), base: ""))
            #expect(cache.count <= PageCache.capacity)
        }
    }

    /// The same page asked with two Host headers names each host in its links; a page asked
    /// again after a change of the table shows the change.
    @Test func aPageFollowsItsHostAndItsTable() async throws {
        try await TestServer.with { server async throws in
            func users(host: String) async throws -> String {
                let answer = try await RawConnection.exchange(
                    port: server.port,
                    "GET /api/v1/users?page=0&size=20 HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                return answer.text
            }
            for _ in 0..<2 {
                let first = try await users(host: "first.example:1"), second = try await users(host: "second.example:2")
                #expect(first.contains("http://first.example:1/images/") && !first.contains("second.example"))
                #expect(second.contains("http://second.example:2/images/") && !second.contains("first.example"))
            }
            let search = "/api/v1/users?page=0&size=20&name=zebra"
            #expect(try await server.get(search, as: [User].self).isEmpty)
            #expect(try await server.get(search, as: [User].self).isEmpty, "asked twice: kept")
            let account = try await AccountTests.register(server, "Aaron", "aaron@example.com")
            try await AccountTests.put(server, "/api/v1/profile/1", [("name", "Zed Zebra")], token: account.token)
            #expect(try await server.get(search, as: [User].self).map(\.name) == ["Zed Zebra"])
        }
    }
}
