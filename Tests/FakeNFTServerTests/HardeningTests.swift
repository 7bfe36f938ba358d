import FakeNFTCore
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import FakeNFTRequests
import GRDB
import Logging
import Testing
import FakeNFTTesting
@testable import FakeNFTServer
@testable import LineLog

/// Hostile and unusual requests: none crashes, hangs or gets a 5xx.
@Suite struct HardeningTests {
    static let lists = ["/api/v1/nft", "/api/v1/collections", "/api/v1/users"]

    /// `page × size` past `Int.max` once trapped in `ListQuery`, killing the server.
    @Test(arguments: lists)
    func pagingNeverOverflows(list: String) async throws {
        try await TestServer.with { server async throws in
            for query in [
                "size=10000&page=922337203685478", "limit=10000&page=922337203685478",
                "size=2&page=9223372036854775807",
                "page=1&page=922337203685478&size=10000", "%70age=922337203685478&%73ize=10000",
                "size=9223372036854775807&page=2", "sortBy=name,desc&size=10000&page=922337203685478",
            ] {
                let (status, data) = try await server.request("GET", "\(list)?\(query)")
                #expect(status == 200 && String(decoding: data, as: UTF8.self) == "[]", "\(list)?\(query)")
            }
            for query in ["page=99999999999999999999", "size=-1", "size=0", "page=1e3", "page=nan", "size=%00"] {
                let (status, data) = try await server.request("GET", "\(list)?\(query)")
                #expect(status == 400 && TestServer.errorMessage(data) != nil, "\(list)?\(query)")
            }
            let (status, data) = try await server.request("GET", "\(list)?size=10000&page=0")
            #expect(status == 200 && !data.isEmpty, "the server still answers")
        }
    }

    @Test func pageWindowIsCheckedArithmetic() {
        #expect(ListQuery(page: Int.max, size: Int.max).window(count: 10) == 10..<10)
        #expect(ListQuery(page: 3, size: 4).window(count: 14) == 12..<14)
        #expect(ListQuery(page: 0, size: nil).window(count: 5) == 0..<5)
        #expect(ListQuery(page: 1, size: 5).window(count: 5) == 5..<5)
    }

    @Test func headAnswersWhereGetDoes() async throws {
        try await TestServer.with { server async throws in
            for path in [
                "/api/v1/nft", "/api/v1/nft/1", "/api/v1/collections?size=2", "/api/v1/collections/1",
                "/api/v1/users/3",
                "/api/v1/users?page=1&size=5", "/api/v1/currencies", "/api/v1/currencies/1", "/api/v1/profile/1",
                "/api/v1/orders/1",
            ] {
                let get = try await server.exchange("GET", path)
                let head = try await RawConnection.exchange(
                    port: server.port,
                    "HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n")
                #expect(head.text.hasPrefix("HTTP/1.1 200 OK"), "HEAD \(path)")
                #expect(
                    head.text.lowercased().contains("content-length: \(get.body.count)\r\n"),
                    "HEAD \(path) announces GET's length")
                #expect(head.text.hasSuffix("\r\n\r\n"), "HEAD \(path) has no body")
            }
            // HEAD would pay: it is not allowed there.
            let pay = try await RawConnection.exchange(
                port: server.port, "HEAD /api/v1/orders/1/payment/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(pay.text.hasPrefix("HTTP/1.1 405") && pay.text.contains("Allow: GET\r\n"))
            #expect(try await server.get("/api/v1/orders/1", as: Order.self).nfts == ["93", "94", "95"])
        }
    }

    @Test func methodNotAllowedNamesTheAllowedOnes() async throws {
        try await TestServer.with { server async throws in
            let cases = [
                ("DELETE", "/api/v1/profile/1", "GET, PUT, HEAD"),
                ("PATCH", "/api/v1/orders/1", "GET, PUT, POST, HEAD"),
                ("POST", "/api/v1/nft", "GET, HEAD"), ("PUT", "/api/v1/users/7", "GET, HEAD"),
                ("POST", "/api/v1/orders/1/payment/1", "GET"),
            ]
            for (method, path, allow) in cases {
                let (status, body, headers) = try await server.exchange(method, path)
                #expect(
                    status == 405 && headers["allow"] == allow && TestServer.errorMessage(body) != nil,
                    "\(method) \(path)")
            }
        }
    }

    @Test func http11WithoutHostIsRefused() async throws {
        try await TestServer.with { server async throws in
            let answer = try await RawConnection.exchange(port: server.port, "GET /api/v1/nft/1 HTTP/1.1\r\n\r\n")
            #expect(answer.text.hasPrefix("HTTP/1.1 400") && answer.text.contains("Host") && answer.closed)
            let http10 = try await RawConnection.exchange(port: server.port, "GET /api/v1/nft/1 HTTP/1.0\r\n\r\n")
            #expect(http10.text.hasPrefix("HTTP/1.1 200"), "HTTP/1.0 needs no Host")
        }
    }

    @Test func http10ConnectionsCloseAfterTheAnswer() async throws {
        try await TestServer.with { server async throws in
            let answer = try await RawConnection.exchange(
                port: server.port, "GET /api/v1/currencies/1 HTTP/1.0\r\n\r\n")
            #expect(answer.closed, "closed without waiting for the client")
            #expect(answer.text.hasPrefix("HTTP/1.1 200") && answer.text.lowercased().contains("connection: close"))
            #expect(answer.text.hasSuffix(#""title":"Bitcoin"}"#))
            // HTTP/1.1 stays open for the next request.
            let kept = try RawConnection(port: server.port)
            kept.send("GET /api/v1/currencies/1 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await kept.receive(timeout: 0.5).closed == false)
        }
    }

    @Test func malformedChunkSizesAreBadRequests() async throws {
        try await TestServer.with { server async throws in
            for chunk in [
                "zz\r\nabc\r\n0\r\n\r\n", "-5\r\nabcde\r\n0\r\n\r\n", "ffffffffffffffffffff\r\nx\r\n0\r\n\r\n",
                "3;\u{0}\r\nabc\r\n0\r\n\r\n",
            ] {
                let answer = try await RawConnection.exchange(
                    port: server.port,
                    "PUT /api/v1/profile/1 HTTP/1.1\r\nHost: x\r\n"
                        + "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + chunk)
                #expect(answer.text.hasPrefix("HTTP/1.1 400"), "\(chunk.debugDescription): \(answer.text)")
            }
            #expect(try await server.get("/api/v1/profile/1", as: Profile.self).likes.count == 12, "nothing changed")
        }
    }

    @Test func hostileBodiesAreBadRequests() async throws {
        try await TestServer.with { server async throws in
            let bodies: [(String, String)] = [
                // nesting past any stack
                ("{\"likes\":" + String(repeating: "[", count: 60_000) + "}", "application/json"),
                (String(repeating: "[", count: 65_000), "application/json"),
                ("{\"likes\": [1e999]}", "application/json"),
                ("[\"likes\"]", "application/json"),
                ("{\"likes\": [{\"id\": 1}]}", "application/json"),
                ("likes=" + String(repeating: ",", count: 60_000) + "999", "application/x-www-form-urlencoded"),
            ]
            for (body, contentType) in bodies {
                let (status, data) = try await server.request(
                    "PUT", "/api/v1/profile/1", body: body, contentType: contentType)
                #expect(status == 400 && TestServer.errorMessage(data) != nil, "\(body.prefix(40))")
            }
            var request = URLRequest(url: server.baseURL.appendingPathComponent("api/v1/profile/1"))
            request.httpMethod = "PUT"
            request.httpBody = Data([0xFF, 0xFE, 0x7B, 0x7D])
            let (data, response) = try await URLSession.shared.data(for: request)
            #expect(
                (response as? HTTPURLResponse)?.statusCode == 400
                    && TestServer.errorMessage(data)?.contains("UTF-8") == true)
            #expect(try await server.get("/api/v1/profile/1", as: Profile.self).likes.count == 12, "nothing changed")
        }
    }

    @Test(.enabled(if: !TestStore.isPostgres, "a SQLite file")) func anEmptyDatabaseFileIsRefusedNotReseeded()
        async throws
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fakenft-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("fakenft.sqlite")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data()))
        await #expect(throws: StoreError.self) { try await TestServer.start(dataDirectory: directory) }
        do { _ = try await TestServer.start(dataDirectory: directory) } catch {
            #expect("\(error)".contains("empty file") && "\(error)".contains("--reset"))
        }
        #expect(try Data(contentsOf: file).isEmpty, "the file was left as it was")
        // A database without its profile.
        try FileManager.default.removeItem(at: file)
        let seeded = try await TestServer.start(dataDirectory: directory)
        await seeded.stop()
        try await DatabaseQueue(path: file.path).write { try $0.execute(sql: "DELETE FROM profile") }
        do {
            _ = try await TestServer.start(dataDirectory: directory)
            Issue.record("a database without a profile was accepted")
        } catch {
            #expect("\(error)".contains(file.path) && "\(error)".contains("no profile"))
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        try Data("not a database, just text".utf8).write(to: file)
        do {
            _ = try await TestServer.start(dataDirectory: directory)
            Issue.record("a text file was accepted")
        } catch {
            #expect("\(error)".contains("not a usable FakeNFT database"))
        }
    }

    /// After a clean stop the main file alone holds everything (a copy of it, a lost -wal), and
    /// a database that was filled and lost its data is refused, never silently filled again.
    @Test(.enabled(if: !TestStore.isPostgres, "a SQLite file")) func aCleanStopLeavesEverythingInTheMainFile()
        async throws
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fakenft-stop-\(UUID().uuidString)")
        let copy = directory.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("fakenft.sqlite")
        let server = try await TestServer.start(dataDirectory: directory)
        let (status, _) = try await server.request(
            "PUT", "/api/v1/profile/1", body: "name=Kept", contentType: "application/x-www-form-urlencoded")
        #expect(status == 200)
        await server.stop()
        try FileManager.default.copyItem(at: file, to: copy.appendingPathComponent("fakenft.sqlite"))
        let fromCopy = try await TestServer.start(dataDirectory: copy)
        #expect(
            try await fromCopy.get("/api/v1/profile/1", as: Profile.self).name == "Kept", "the copy holds the change")
        await fromCopy.stop()
        // Filled once, then emptied: refused with the way out, and left as it was.
        try await DatabaseQueue(path: file.path).write { try $0.execute(sql: "DELETE FROM currency") }
        do {
            _ = try await TestServer.start(dataDirectory: directory)
            Issue.record("an emptied database was filled again")
        } catch {
            #expect(
                "\(error)".contains(file.path) && "\(error)".contains("data is gone") && "\(error)".contains("--reset"))
        }
        #expect(
            try await DatabaseQueue(path: file.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM profile") }
                == 1)
        let reset = try await FakeNFTServer.start(ServerConfiguration(port: 0, dataDirectory: directory, reset: true))
        let currencies = try await URLSession.shared.data(
            from: reset.baseURL.appendingPathComponent("api/v1/currencies"))
        #expect(try JSONDecoder().decode([Currency].self, from: currencies.0).count > 0, "filled anew")
        await reset.stop()
    }

    /// A body sent a byte at a time never holds a connection: past the deadline the connection
    /// closes, though the client is still sending (and never idle), whether the route reads a
    /// body (a profile change) or not (a read, an unknown path, a sign-out without a token).
    @Test(arguments: ["PUT /api/v1/profile/1", "GET /api/v1/nft/1", "GET /api/v1/nope", "POST /api/v1/auth/logout"])
    func aBodyThatDripsInClosesItsConnection(_ request: String) async throws {
        try await TestServer.with { server async throws in
            let connection = try RawConnection(port: server.port)
            connection.send(
                """
                \(request) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \
                application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nname=
                """
            )
            let dripping = Task {  // a byte a second, longer than the answer can take under a full run's load
                for _ in 0..<300 {
                    try await Task.sleep(for: .seconds(1))
                    connection.send("x")
                }
            }
            let answer = await connection.receive(timeout: 240)
            dripping.cancel()
            #expect(answer.closed, "the connection is closed, not kept for the rest of the body: \(answer.text)")
            #expect(!answer.text.hasPrefix("HTTP/1.1 2"), "nothing was accepted")
            #expect(try await server.get("/api/v1/profile/1", as: Profile.self).name == "Студентус Практикумус")
        }
    }

    /// A request path (or any logged text) cannot put an escape sequence into the operator's terminal.
    @Test func logLinesEscapeControlCharacters() throws {
        #expect(LineLogHandler.escapingControls("GET /a\u{1B}[2J\u{9B}b\n") == "GET /a\\u{1B}[2J\\u{9B}b\\u{A}")
        #expect(LineLogHandler.escapingControls("plain /путь") == "plain /путь")
        // As JSON (`--log-format json`): one object per line, controls escaped as JSON escapes.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID()).jsonl").path
        var handler = LineLogHandler(
            label: "fakenft.server", writer: .appending(to: path), logLevel: .info, format: .json)
        handler[metadataKey: "path"] = "/a\u{1B}[2J\u{9B}b"
        handler.log(
            event: LogEvent(
                level: .error, message: "500 for GET /x", metadata: ["status": "500"], source: "t", file: "f",
                function: "g", line: 1))
        LineWriter.flush()
        let line = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            line.split(separator: "\n").count == 1 && !line.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" }
        )
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        #expect(
            object?["level"] == "error" && object?["label"] == "fakenft.server"
                && object?["message"] == "500 for GET /x")
        #expect(object?["path"] == "/a\u{1B}[2J\u{9B}b" && object?["status"] == "500" && object?["time"] != nil)
    }

    /// Versions only need to differ: one past `Int.max` wraps instead of trapping.
    @Test func aVersionAtIntMaxWraps() async throws {
        try await TestServer.with { server async throws in
            _ = try await server.databaseRows("UPDATE profile SET version = \(Int.max)")
            let answer = try await server.exchange(
                "PUT", "/api/v1/profile/1", body: "likes=1", headers: ["If-Match": "\"\(Int.max)\""])
            #expect(answer.status == 200 && answer.headers["etag"] == "\"\(Int.min)\"")
        }
    }

    @Test func a500IsLoggedWithItsCause() async throws {
        try await TestServer.with { server async throws in
            // Damage the database behind the server's back: the profile row disappears.
            _ = try await server.databaseRows("DELETE FROM profile")
            let (status, data) = try await server.request("PUT", "/api/v1/profile/1", body: "name=Lost")
            #expect(status == 500 && TestServer.errorMessage(data) == "internal error")
            let log = server.configuration.dataDirectory.appendingPathComponent("server.log")
            var text = ""
            _ = await polled {
                text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                return text.contains("500")
            }
            #expect(text.contains("500 for PUT /api/v1/profile/1: the database has no profile"), "\(text)")
        }
    }
}
