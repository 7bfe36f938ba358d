import FakeNFTCore
import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

/// ETag / If-Match on the profile and the order, and the cross-site guard on every change.
@Suite struct ConcurrencyControlTests {
    @Test func profileVersionsGuardPuts() async throws {
        try await TestServer.with { server async throws in
            let first = try await server.exchange("GET", "/api/v1/profile/1")
            let tag = try #require(first.headers["etag"])
            let changed = try await server.exchange(
                "PUT", "/api/v1/profile/1", body: "likes=1", headers: ["If-Match": tag])
            #expect(changed.status == 200)
            let newTag = try #require(changed.headers["etag"])
            let reread = try await server.exchange("GET", "/api/v1/profile/1").headers["etag"]
            #expect(newTag != tag && reread == newTag)
            // The old version is gone: 412, nothing changes.
            let stale = try await server.exchange(
                "PUT", "/api/v1/profile/1", body: "likes=2", headers: ["If-Match": tag])
            #expect(stale.status == 412 && TestServer.errorMessage(stale.body)?.contains("reload") == true)
            #expect(try await server.get("/api/v1/profile/1", as: Profile.self).likes == ["1"])
            #expect(
                try await server.exchange("PUT", "/api/v1/profile/1", body: "name=N", headers: ["If-Match": "*"]).status
                    == 200)
            let latest = try #require(try await server.exchange("GET", "/api/v1/profile/1").headers["etag"])
            let listed = try await server.exchange(
                "PUT", "/api/v1/profile/1", body: "name=N", headers: ["If-Match": "\"999\", \(latest)"])
            #expect(listed.status == 200, "one of a list")
            let current = try #require(listed.headers["etag"])
            for header in ["W/\(current)", "garbage", "\"\"", "\"99999999999999999999999\"", "\"-1\"", ","] {
                #expect(
                    try await server.exchange("PUT", "/api/v1/profile/1", body: "name=M", headers: ["If-Match": header])
                        .status == 412, "\(header)")
            }
            #expect(
                try await server.exchange("PUT", "/api/v1/profile/1", body: "name=M").status == 200,
                "no If-Match: as before")
        }
    }

    @Test func orderVersionsGuardPutPostAndMoveWithPayment() async throws {
        try await TestServer.with { server async throws in
            let tag = try #require(try await server.exchange("GET", "/api/v1/orders/1").headers["etag"])
            #expect(
                try await server.exchange("PUT", "/api/v1/orders/1", body: "nfts=1,2", headers: ["If-Match": tag])
                    .status == 200)
            #expect(
                try await server.exchange("PUT", "/api/v1/orders/1", body: "nfts=3", headers: ["If-Match": tag]).status
                    == 412)
            #expect(try await server.exchange("POST", "/api/v1/orders/1", headers: ["If-Match": tag]).status == 412)
            #expect(try await server.get("/api/v1/orders/1", as: Order.self).nfts == ["1", "2"])
            let profileTag = try #require(try await server.exchange("GET", "/api/v1/profile/1").headers["etag"])
            let orderTag = try #require(try await server.exchange("GET", "/api/v1/orders/1").headers["etag"])
            #expect(try await server.get("/api/v1/orders/1/payment/1", as: PaymentResult.self).success)
            // Paying changed both: old versions are refused.
            #expect(
                try await server.exchange(
                    "PUT", "/api/v1/profile/1", body: "likes=3", headers: ["If-Match": profileTag]
                ).status == 412)
            #expect(
                try await server.exchange("PUT", "/api/v1/orders/1", body: "nfts=3", headers: ["If-Match": orderTag])
                    .status == 412)
            let profile: Profile = try await server.get("/api/v1/profile/1")
            #expect(Array(profile.nfts.suffix(2)) == ["1", "2"])
        }
    }

    /// Two clients replacing whole lists without versions undo each other; with If-Match and
    /// a reload on 412, none of 200 acknowledged toggles is lost.
    @Test func clientsWithVersionsLoseNoToggles() async throws {
        try await TestServer.with { server async throws in
            #expect(try await server.request("PUT", "/api/v1/profile/1", body: "likes=null").status == 200)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<2 {
                    group.addTask {
                        for n in stride(from: client + 1, through: 95, by: 2) {
                            try await Self.addLike(String(n), on: server)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let likes = try await server.get("/api/v1/profile/1", as: Profile.self).likes
            #expect(Set(likes) == Set((1...95).map(String.init)))
        }
    }

    /// Reads, adds one id, writes with If-Match; on 412 starts again.
    private static func addLike(_ id: String, on server: TestServer) async throws {
        while true {
            let current = try await server.exchange("GET", "/api/v1/profile/1")
            let likes = try JSONDecoder().decode(Profile.self, from: current.body).likes + [id]
            let put = try await server.exchange(
                "PUT", "/api/v1/profile/1", body: "likes=\(likes.joined(separator: ","))",
                headers: ["If-Match": current.headers["etag"] ?? ""])
            if put.status == 200 { return }
            #expect(put.status == 412)
        }
    }

    /// Two clients without If-Match (the iOS apps), each reading then writing a whole list:
    /// with `merge`, both keep their changes; with `replace` (the real backend's way), the later
    /// write undoes the earlier one's.
    @Test(arguments: ServerConfiguration.ListWrites.allCases)
    func listWritesWithoutIfMatch(_ mode: ServerConfiguration.ListWrites) async throws {
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("lists-\(UUID())"),
            postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        configuration.listWrites = mode
        configuration.trustedProxies = [IPAddressRange("127.0.0.1")!]  // clients told apart by X-Forwarded-For
        let server = TestServer(server: try await FakeNFTServer.start(configuration), configuration: configuration)
        /// Reads (or, with `list`, writes) a list as `client`: the likes, or the cart's NFTs.
        func exchange(_ path: String, _ field: String, as client: String, put list: [String]?) async throws -> Data {
            let (status, body) = try await server.request(
                list == nil ? "GET" : "PUT", path, body: list.map { field + "=" + IDList.formValue($0) },
                contentType: "application/x-www-form-urlencoded", headers: ["X-Forwarded-For": client])
            #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
            return body
        }
        func likes(as client: String, put list: [String]? = nil) async throws -> [String] {
            let body = try await exchange("/api/v1/profile/1", "likes", as: client, put: list)
            return try JSONDecoder().decode(Profile.self, from: body).likes
        }
        func cart(as client: String, put list: [String]? = nil) async throws -> [String] {
            try JSONDecoder().decode(
                Order.self, from: try await exchange("/api/v1/orders/1", "nfts", as: client, put: list)
            )
            .nfts
        }
        let start = try await likes(as: "10.0.0.1")
        #expect(try await likes(as: "10.0.0.2") == start)
        _ = try await likes(as: "10.0.0.1", put: start + ["1"])  // the first adds 1
        let removed = start[0]
        // the second removes one and adds 2
        let after = try await likes(as: "10.0.0.2", put: Array(start.dropFirst()) + ["2"])
        let merged = Array(start.dropFirst()) + ["1", "2"]
        #expect(Set(after) == (mode == .merge ? Set(merged) : Set(start.dropFirst() + ["2"])), "\(mode): \(after)")
        #expect(!after.contains(removed))
        // The cart too: both add an NFT to the cart they read.
        let cartStart = try await cart(as: "10.0.0.1")
        _ = try await cart(as: "10.0.0.2")
        _ = try await cart(as: "10.0.0.1", put: cartStart + ["3"])
        let cartAfter = try await cart(as: "10.0.0.2", put: cartStart + ["4"])
        #expect(Set(cartAfter) == Set(cartStart + (mode == .merge ? ["3", "4"] : ["4"])), "\(mode): \(cartAfter)")
        // A client the server has not seen replaces, in either mode.
        #expect(try await likes(as: "10.0.0.9", put: ["5"]) == ["5"])
        await server.stop()
    }

    /// `merge`, with both kinds of client at once behind one address: a client that keeps the
    /// list it sent (not the merged answer) removes only what it removed, and an app that sends
    /// `If-Match` (another `User-Agent`) never moves the base of one that does not.
    @Test func mergeKeepsEveryClientsOwnChanges() async throws {
        let server = try await Self.mergingServer()
        func likes(_ agent: String, put list: [String]? = nil, ifMatch: String? = nil) async throws -> [String] {
            let (status, body) = try await server.request(
                list == nil ? "GET" : "PUT", "/api/v1/profile/1", body: list.map { "likes=" + IDList.formValue($0) },
                contentType: "application/x-www-form-urlencoded",
                headers: ["User-Agent": agent].merging(ifMatch.map { ["If-Match": $0] } ?? [:]) { $1 })
            #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
            return try JSONDecoder().decode(Profile.self, from: body).likes
        }
        // A client that keeps the list it sent, beside another writer.
        let start = try await likes("keeper")
        _ = try await likes("other")
        _ = try await likes("other", put: start + ["2"])
        _ = try await likes("keeper", put: start + ["1"])  // merged with 2; the keeper holds start + 1
        let afterKeeper = try await likes("keeper", put: start)  // it takes its 1 back
        #expect(Set(afterKeeper) == Set(start + ["2"]), "the other's 2 stays: \(afterKeeper)")
        // An app with If-Match at the same address, between a read and a write of an iOS app.
        let seen = try await likes("iOS")
        let tag = try await server.exchange("GET", "/api/v1/profile/1", headers: ["User-Agent": "app"]).headers["etag"]
        _ = try await likes("app", put: seen + ["3"], ifMatch: tag)
        let afterIOS = try await likes("iOS", put: seen + ["4"])
        #expect(Set(afterIOS) == Set(seen + ["3", "4"]), "the app's 3 stays: \(afterIOS)")
        await server.stop()
    }

    /// `merge`, two identical clients behind one address (one `User-Agent`: two simulators
    /// behind a NAT), one reading before each change and one keeping the list it sent, toggling
    /// likes of their own in turn, 100 each: every change either made is in the list at the end.
    @Test func identicalClientsBehindOneAddressLoseNothing() async throws {
        let server = try await Self.mergingServer()
        func likes(put list: [String]? = nil) async throws -> [String] {
            let (status, body) = try await server.request(
                list == nil ? "GET" : "PUT", "/api/v1/profile/1", body: list.map { "likes=" + IDList.formValue($0) },
                contentType: "application/x-www-form-urlencoded", headers: ["User-Agent": "FakeNFT/1 CFNetwork"])
            #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
            return try JSONDecoder().decode(Profile.self, from: body).likes
        }
        let ids = (1...95).map(String.init)
        let readerIDs = Array(ids[0..<40]), keeperIDs = Array(ids[40..<80])
        var keeper = try await likes()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            var reader = try await likes()
            let mine = readerIDs.randomElement(using: &generator)!
            reader = reader.contains(mine) ? reader.filter { $0 != mine } : reader + [mine]
            _ = try await likes(put: reader)
            let its = keeperIDs.randomElement(using: &generator)!
            keeper = keeper.contains(its) ? keeper.filter { $0 != its } : keeper + [its]
            _ = try await likes(put: keeper)  // the answer (merged) is not kept: the keeper holds its own
            let now = Set(try await likes())
            #expect(now.intersection(keeperIDs) == Set(keeper).intersection(keeperIDs), "the keeper's likes")
            #expect(now.intersection(readerIDs) == Set(reader).intersection(readerIDs), "the reader's likes")
        }
        await server.stop()
    }

    /// `merge`, two clients of one account that take each PUT's answer as their list (the iOS
    /// apps' way), toggling likes and cart NFTs of their own in turn, 200 each: none is lost.
    @Test func clientsThatAdoptTheAnswerLoseNothing() async throws {
        let server = try await Self.mergingServer()
        func put(_ path: String, _ field: String, _ list: [String], as agent: String) async throws -> Data {
            let (status, body) = try await server.request(
                "PUT", path, body: field + "=" + IDList.formValue(list),
                contentType: "application/x-www-form-urlencoded", headers: ["User-Agent": agent])
            #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
            return body
        }
        let (_, shared) = try await server.request("GET", "/api/v1/profile/1")
        let owned = Set(try JSONDecoder().decode(Profile.self, from: shared).nfts)
        let ids = (1...95).map(String.init).filter { !owned.contains($0) }  // an owned NFT is never put in a cart
        let own = ["first": Array(ids[0..<30]), "second": Array(ids[30..<60])]
        var lists = ["first": [String](), "second": [String]()], carts = lists
        for agent in ["first", "second"] {
            let (_, profile) = try await server.request("GET", "/api/v1/profile/1", headers: ["User-Agent": agent])
            lists[agent] = try JSONDecoder().decode(Profile.self, from: profile).likes
            let (_, order) = try await server.request("GET", "/api/v1/orders/1", headers: ["User-Agent": agent])
            carts[agent] = try JSONDecoder().decode(Order.self, from: order).nfts
        }
        var expectedLikes = Set(lists["first"] ?? []), expectedCart = Set(carts["first"] ?? [])
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let agent = round % 2 == 0 ? "first" : "second"
            let id = own[agent]!.randomElement(using: &generator)!
            let liked = lists[agent]!.contains(id)
            if liked { expectedLikes.remove(id) } else { expectedLikes.insert(id) }
            let profile = try await put(
                "/api/v1/profile/1", "likes", liked ? lists[agent]!.filter { $0 != id } : lists[agent]! + [id],
                as: agent)
            lists[agent] = try JSONDecoder().decode(Profile.self, from: profile).likes  // the answer, adopted
            let inCart = carts[agent]!.contains(id)
            if inCart { expectedCart.remove(id) } else { expectedCart.insert(id) }
            let order = try await put(
                "/api/v1/orders/1", "nfts", inCart ? carts[agent]!.filter { $0 != id } : carts[agent]! + [id], as: agent
            )
            carts[agent] = try JSONDecoder().decode(Order.self, from: order).nfts
        }
        let (_, profile) = try await server.request("GET", "/api/v1/profile/1")
        let (_, order) = try await server.request("GET", "/api/v1/orders/1")
        let likes = Set(try JSONDecoder().decode(Profile.self, from: profile).likes)
        let cart = Set(try JSONDecoder().decode(Order.self, from: order).nfts)
        #expect(likes == expectedLikes, "lost likes: \(expectedLikes.symmetricDifference(likes).count)")
        #expect(cart == expectedCart, "lost cart changes: \(expectedCart.symmetricDifference(cart).count)")
        await server.stop()
    }

    /// A server of its own with `--lists-without-if-match merge`.
    private static func mergingServer() async throws -> TestServer {
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("merge-\(UUID())"),
            postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        configuration.listWrites = .merge
        return TestServer(server: try await FakeNFTServer.start(configuration), configuration: configuration)
    }

    static let changes: [(String, String, String?)] = [
        ("PUT", "/api/v1/profile/1", "name=Evil"), ("PUT", "/api/v1/orders/1", "nfts=1"),
        ("POST", "/api/v1/orders/1", nil), ("GET", "/api/v1/orders/1/payment/1", nil),
    ]

    @Test(arguments: changes)
    func otherSitesCannotChangeData(method: String, path: String, body: String?) async throws {
        try await TestServer.with { server async throws in
            let refusals: [[String: String]] = [
                ["Origin": "http://evil.example"], ["Origin": "null"], ["Origin": "http://127.0.0.1:1"],
                ["Sec-Fetch-Site": "cross-site"], ["Sec-Fetch-Site": "same-site"],
                ["Origin": server.baseURL.absoluteString, "Sec-Fetch-Site": "cross-site"],
            ]
            for headers in refusals {
                let (status, data) = try await server.request(
                    method, path, body: body, contentType: "text/plain", headers: headers)
                #expect(status == 403 && TestServer.errorMessage(data)?.contains("refused") == true, "\(headers)")
            }
            #expect(try await server.get("/api/v1/profile/1", as: Profile.self).name == "Студентус Практикумус")
            #expect(
                try await server.get("/api/v1/orders/1", as: Order.self).nfts == ["93", "94", "95"], "nothing changed")
            // The server's own origin, a same-origin fetch, and clients that send neither header.
            for headers in [
                ["Origin": server.baseURL.absoluteString], ["Sec-Fetch-Site": "same-origin"],
                ["Sec-Fetch-Site": "none"], [:],
            ] {
                let status = try await server.request(method, path, body: body, headers: headers).status
                #expect(status == 200, "\(method) \(path) \(headers)")
            }
        }
    }

    /// DNS rebinding: a page whose name now points at this server sends its own name as both
    /// `Host` and `Origin`; a browser's change must name a host the server serves.
    @Test func aReboundNameCannotChangeData() async throws {
        try await TestServer.with { server async throws in
            func put(host: String, _ headers: String) async throws -> String {
                let body = "name=Rebound"
                return try await RawConnection.exchange(
                    port: server.port,
                    """
                    PUT /api/v1/profile/1 HTTP/1.1\r\nHost: \(host)\r\n\(headers)Content-Type: \
                    application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: \
                    close\r\n\r\n\(body)
                    """
                ).text
            }
            let port = server.port
            for (host, headers) in [
                ("evil.example:\(port)", "Origin: http://evil.example:\(port)\r\n"),
                ("evil.example:\(port)", "Sec-Fetch-Site: same-origin\r\n"),
                ("127.0.0.1.evil.example:\(port)", "Origin: http://127.0.0.1.evil.example:\(port)\r\n"),
                ("localhost.evil.example", "Origin: http://localhost.evil.example\r\n"),
            ] {
                let answer = try await put(host: host, headers)
                #expect(answer.hasPrefix("HTTP/1.1 403") && answer.contains("does not serve"), "\(host): \(answer)")
            }
            #expect(try await server.get("/api/v1/profile/1", as: Profile.self).name == "Студентус Практикумус")
            for (host, headers) in [
                ("localhost:\(port)", "Origin: http://localhost:\(port)\r\n"),
                ("127.0.0.1:\(port)", "Sec-Fetch-Site: same-origin\r\n"),
                ("[::1]:\(port)", "Origin: http://[::1]:\(port)\r\n"),
                ("any.example", ""),  // not a browser: curl, the apps
            ] {
                let answer = try await put(host: host, headers)
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(host): \(answer)")
            }
        }
    }

    @Test func theHostsABrowserMayNameAreLoopbackTheListeningHostAndThePublicURL() {
        let guarding = CrossSiteGuard(
            configuration: ServerConfiguration(
                host: "0.0.0.0", dataDirectory: URL(fileURLWithPath: "/tmp"),
                imageLinks: .local(publicURL: URL(string: "https://NFT.example.com/app"))))
        for served in [
            "nft.example.com", "NFT.Example.com:443", "localhost:8080", "127.9.9.9", "[::1]:80", "a.localhost",
        ] {
            #expect(guarding.serves(served), "\(served)")
        }
        for other in [
            "0.0.0.0:8080", "evil.example", "127.0.0.1.evil.example", "nft.example.com.evil", "", "127.0.0.256",
        ] {
            #expect(!guarding.serves(other), "\(other)")
        }
        let listening = CrossSiteGuard(
            configuration: ServerConfiguration(host: "10.0.0.5", dataDirectory: URL(fileURLWithPath: "/tmp")))
        #expect(listening.serves("10.0.0.5:8080") && !listening.serves("10.0.0.6:8080"))
    }

    /// `fakenft serve --read-only`: every change is refused with its reason, every read answered.
    @Test func aReadOnlyServerRefusesEveryChange() async throws {
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("ro-\(UUID())"),
            postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        configuration.readOnly = true
        let server = TestServer(server: try await FakeNFTServer.start(configuration), configuration: configuration)
        let changes =
            Self.changes + [
                ("POST", "/api/v1/auth/register", "name=A&email=a@example.com&password=correct+horse+1"),
                ("POST", "/api/v1/auth/login", "email=a@example.com&password=correct+horse+1"),
                ("POST", "/api/v1/auth/logout", nil), ("POST", "/api/v1/auth/logout-all", nil),
            ]
        for (method, path, body) in changes {
            let (status, data) = try await server.request(
                method, path, body: body, contentType: "application/x-www-form-urlencoded")
            #expect(status == 403 && TestServer.errorMessage(data)?.contains("read-only") == true, "\(method) \(path)")
        }
        for path in ["/api/v1/profile/1", "/api/v1/orders/1", "/api/v1/nft/1", "/api/v1/users", "/health/ready"] {
            #expect(try await server.request("GET", path).status == 200, "\(path)")
        }
        #expect(try await server.get("/api/v1/orders/1", as: Order.self).nfts == ["93", "94", "95"], "nothing changed")
        await server.stop()
    }

    @Test func otherSitesMayStillRead() async throws {
        try await TestServer.with { server async throws in
            for path in ["/api/v1/nft/1", "/api/v1/profile/1", "/api/v1/orders/1"] {
                #expect(
                    try await server.request(
                        "GET", path, headers: ["Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"]
                    ).status == 200)
            }
        }
    }
}
