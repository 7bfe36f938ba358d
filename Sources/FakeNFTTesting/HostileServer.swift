import FakeNFTCore
import FakeNFTServer
import Foundation
import Glibc
import Synchronization

/// A FakeNFT server that misbehaves on purpose, one way per ``Mode``, on a free loopback port:
/// what the app must survive without crashing, freezing or passing anything harmful on.
///
/// It is plain blocking sockets on threads of its own, so that it keeps answering while tests
/// in the same process block Swift's cooperative threads (end-to-end tests wait on tmux).
public final class HostileServer: @unchecked Sendable {
    public enum Mode: String, CaseIterable, Sendable, CustomStringConvertible {
        /// Every answer is broken JSON.
        case invalidJSON
        /// JSON of the wrong shapes: objects for strings, numbers for lists, booleans for ids.
        case wrongTypes
        /// Ratings and prices that are NaN, infinite or far out of range.
        case hostileNumbers
        /// Lists of hundreds of thousands of ids.
        case hugeArrays
        /// Answers whose bodies never end.
        case endlessBodies
        /// Requests that are never answered.
        case hanging
        /// Answers that begin and then send nothing more, the connection left open (dead, not closed).
        case stallingBodies
        /// 503 and 429 with absurd Retry-After, and 500s carrying escape sequences.
        case serverErrors
        /// Escape sequences, OSC 52 and bidi controls in every string field.
        case escapeSequences
        /// Websites and links that are options, local files or command lines.
        case hostileWebsites

        public var description: String { rawValue }
    }

    public let mode: Mode
    public let baseURL: URL
    private let listener: Int32
    private let answers: Answers
    private let arrived = Mutex(0)

    /// The requests read so far (a test waits for one to be in flight).
    public var requestsRead: Int { arrived.withLock { $0 } }

    /// Starts a server misbehaving in `mode`.
    public static func start(_ mode: Mode) throws -> HostileServer {
        try HostileServer(mode: mode, answers: Answers(mode: mode, data: Dataset.gen1()))
    }

    private init(mode: Mode, answers: Answers) throws {
        self.mode = mode
        self.answers = answers
        let (listener, port) = try loopbackListener()
        self.listener = listener
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        Thread { [self] in acceptLoop() }.start()
    }

    /// Stops accepting; connections end when the app closes them.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            Thread { [self] in serve(connection) }.start()
        }
    }

    /// Answers requests on one connection until it closes.
    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer: [UInt8] = []
        while let (method, path, rest) = Self.readRequest(connection, &buffer) {
            buffer = rest
            arrived.withLock { $0 += 1 }
            switch answers.answer(method: method, path: path) {
            case .whole(let status, let headers, let body):
                var head = "HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\n"
                for (name, value) in headers { head += "\(name): \(value)\r\n" }
                guard Self.send(connection, head + "\r\n" + body) else { return }
            case .endless(let start):
                guard
                    Self.send(
                        connection,
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                            + String(start.utf8.count, radix: 16) + "\r\n" + start + "\r\n")
                else { return }
                // One chunk, encoded once: the server must cost little CPU however fast the app reads.
                let chunk = Array(("10000\r\n" + String(repeating: "x", count: 65_536) + "\r\n").utf8)
                while Self.send(connection, chunk) {}
                return
            case .stalls(let start):
                guard
                    Self.send(
                        connection,
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(start.utf8.count, radix: 16)
                            + "\r\n" + start + "\r\n")
                else { return }
                Self.waitForClose(connection)
                return
            case .never:
                Self.waitForClose(connection)
                return
            }
        }
    }

    /// Until the app gives up and closes the connection.
    private static func waitForClose(_ connection: Int32) {
        var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 1_000) == 0 {}
    }

    /// Reads one request head (and its body, by Content-Length); nil when the connection ends.
    private static func readRequest(_ connection: Int32, _ buffer: inout [UInt8]) -> (String, String, [UInt8])? {
        let separator: [UInt8] = [13, 10, 13, 10]
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let end = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let lines = head.split(separator: "\r\n")
                let parts = lines.first?.split(separator: " ") ?? []
                let length =
                    lines.dropFirst().compactMap { line -> Int? in
                        let pair = line.split(separator: ":", maxSplits: 1)
                        return pair.count == 2 && pair[0].lowercased() == "content-length"
                            ? Int(pair[1].trimmingCharacters(in: .whitespaces)) : nil
                    }.first ?? 0
                let bodyStart = end + separator.count
                while buffer.count < bodyStart + length {
                    let n = recv(connection, &chunk, chunk.count, 0)
                    guard n > 0 else { return nil }
                    buffer += chunk[0..<n]
                }
                guard parts.count >= 2 else { return nil }
                return (String(parts[0]), String(parts[1]), Array(buffer[(bodyStart + length)...]))
            }
            let n = recv(connection, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer += chunk[0..<n]
        }
    }

    private static func send(_ connection: Int32, _ text: String) -> Bool { send(connection, Array(text.utf8)) }

    private static func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }
}

/// The answers of one mode.
private struct Answers: Sendable {
    let mode: HostileServer.Mode
    let data: Dataset

    static let escapes = "\u{1B}[2J\u{1B}[31m\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}\u{202E}\u{1B}P+q\u{1B}\\\u{9B}1;1H"

    /// What the server sends for one request.
    enum Reply {
        case whole(status: String, headers: [(String, String)], body: String)
        /// A chunked body that starts with `start` and never ends.
        case endless(start: String)
        /// A chunked body that starts with `start`, then nothing, the connection left open.
        case stalls(start: String)
        /// Nothing, ever.
        case never
    }

    func answer(method: String, path: String) -> Reply {
        let path = String(path.prefix { $0 != "?" })
        switch mode {
        case .invalidJSON: return json("{\"id\": \"1\", \"name\": [unterminated")
        case .endlessBodies: return .endless(start: "[{\"id\":\"1\",\"name\":\"")
        case .hanging: return .never
        case .stallingBodies: return .stalls(start: path.hasSuffix("/events") ? ": connected\n\n" : "[")
        case .serverErrors:
            if path.hasSuffix("currencies") || path.contains("/users") {
                return .whole(status: "503 Service Unavailable", headers: [("Retry-After", "nan")], body: "")
            }
            if path.contains("/nft") {
                return .whole(status: "429 Too Many Requests", headers: [("Retry-After", "-1e300")], body: "")
            }
            return json(
                (try? Self.encode(["error": "database \(Self.escapes) on fire"])) ?? "{}",
                status: "500 Internal Server Error")
        case .wrongTypes:
            if path.hasSuffix("/profile/1") {
                return json(#"{"id": true, "name": {"a": 1}, "nfts": 5, "likes": [[1], {}], "website": []}"#)
            }
            if path.hasSuffix("/orders/1") { return json(#"{"id": [], "nfts": {"1": 2}}"#) }
            if path.hasSuffix("/collections") || path.hasSuffix("/users") || path.hasSuffix("/nft")
                || path.hasSuffix("/currencies")
            {
                return json(#"[{"id": {}, "name": 5, "nfts": "a,,b", "rating": true, "price": "cheap"}, 7, "x", null]"#)
            }
            return json(#"{"id": 1.5, "name": false, "images": "one", "rating": [5], "price": {}, "nfts": 3}"#)
        case .hostileWebsites where path == "/page.html":
            return .whole(status: "200 OK", headers: [("Content-Type", "text/html; charset=utf-8")], body: Self.page)
        case .hostileNumbers, .hugeArrays, .escapeSequences, .hostileWebsites:
            return json((try? Self.encode(dataAnswer(path))) ?? "{}")
        }
    }

    /// The web page of the hostile websites (`/page.html`): a table, preformatted text, a link
    /// that is not the web, one that is a script, and one to the page itself.
    static let page = """
        <html><head><title>Terms</title></head><body><h1>Terms</h1>
        <table><tr><td>A</td><td>B</td></tr></table>
        <pre>line one
          line two</pre>
        <p><a href="file:///etc/passwd">a file</a> <a href="javascript:alert(1)">a script</a>
        <a href="/page.html">this page</a></p></body></html>
        """

    /// The gen1 answer for `path`, changed the way the mode wants.
    private func dataAnswer(_ path: String) -> Any {
        let segments = path.split(separator: "/").map(String.init)
        let id = segments.count > 3 ? segments[3] : nil
        func object<T: Encodable>(_ value: T) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any]) ?? [:]
        }
        var value: Any
        switch segments.count > 2 ? segments[2] : "" {
        case "collections":
            value =
                id.map { id in data.collections.first { $0.id == id }.map(object) ?? [:] }
                ?? data.collections.map(object)
        case "nft": value = id.map { id in data.nfts.first { $0.id == id }.map(object) ?? [:] } ?? data.nfts.map(object)
        case "users":
            value = id.map { id in data.users.first { $0.id == id }.map(object) ?? [:] } ?? data.users.map(object)
        case "currencies": value = data.currencies.map(object)
        case "profile": value = object(data.profile)
        case "orders":
            value =
                segments.count > 4 ? ["success": true, "orderId": "1", "id": segments.last ?? ""] : object(data.order)
        default: value = [:]
        }
        return transform(value)
    }

    private func transform(_ value: Any) -> Any {
        switch value {
        case let list as [Any]: return list.map(transform)
        case var dict as [String: Any]:
            for (key, field) in dict {
                switch (mode, key, field) {
                case (.hostileNumbers, "rating", _):
                    dict[key] = ["nan", 1e300, -1e300, "1e999", "-inf"][Self.pick(dict, 5)]
                case (.hostileNumbers, "price", _): dict[key] = [1e308, "nan", -5, "inf"][Self.pick(dict, 4)]
                case (.hugeArrays, "nfts", _), (.hugeArrays, "likes", _):
                    dict[key] = (1...300_000).map { String($0 % 95 + 1) }
                case (.escapeSequences, _, let text as String): dict[key] = text + Self.escapes
                case (.hostileWebsites, "website", _): dict[key] = "--version"
                case (.hostileWebsites, "author", _): dict[key] = "file:///etc/passwd"
                case (.hostileWebsites, "avatar", _), (.hostileWebsites, "cover", _):
                    dict[key] = "https://a.example/\u{1B}[201~\nrm -rf ~\n"
                default: dict[key] = transform(field)
                }
            }
            return dict
        default: return value
        }
    }

    /// A choice among `count` that depends only on the object's id.
    private static func pick(_ object: [String: Any], _ count: Int) -> Int {
        "\(object["id"] ?? "")".utf8.reduce(0) { $0 + Int($1) } % count
    }

    private static func encode(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }

    private func json(_ text: String, status: String = "200 OK") -> Reply {
        .whole(status: status, headers: [("Content-Type", "application/json")], body: text)
    }
}
