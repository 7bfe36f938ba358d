import Foundation
import Glibc
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// The client goes through the proxies the environment names, as curl reads them, and straight
/// to loopback and to the hosts `no_proxy` lists.
@Suite struct ProxyTests {
    @Test func theEnvironmentIsReadAsCurlReadsIt() throws {
        let settings = ProxySettings(environment: [
            "http_proxy": "http://anna:s%40cret@proxy.example:3128", "HTTP_PROXY": "http://ignored.example:1",
            "HTTPS_PROXY": "proxy.example:8443", "no_proxy": " .Internal.example, api.example:8080,,",
        ])
        let http = try #require(settings.http)
        #expect(http.host == "proxy.example" && http.port == 3128 && http.user == "anna" && http.password == "s@cret")
        #expect(settings.https?.host == "proxy.example" && settings.https?.port == 8443 && settings.https?.user == nil)
        #expect(settings.direct == ["internal.example", "api.example"])
        #expect(settings.proxy(for: URL(string: "http://fakenft.example/api")!) == http)
        #expect(settings.proxy(for: URL(string: "https://fakenft.example/api")!) == settings.https)
        for direct in [
            "http://a.internal.example/", "http://internal.example/", "http://API.example:8080/",
            "http://127.0.0.1:8080/", "http://localhost/", "http://[::1]:80/", "ftp://fakenft.example/",
        ] {
            #expect(settings.proxy(for: URL(string: direct)!) == nil, "\(direct)")
        }
        #expect(settings.proxy(for: URL(string: "http://notinternal.example/")!) == http, "a suffix, not a name")
        let everything = ProxySettings(environment: ["http_proxy": "proxy.example", "NO_PROXY": "*"])
        #expect(everything.proxy(for: URL(string: "http://fakenft.example/")!) == nil)
        #expect(everything.http?.port == 1080, "curl's default port")
        for unsupported in ["socks5://proxy.example:1080", "https://proxy.example", "http://"] {
            #expect(ProxySettings(environment: ["http_proxy": unsupported]).http == nil, "\(unsupported)")
        }
    }

    /// A request for a host the proxy serves reaches the proxy (AsyncHTTPClient tunnels every
    /// request with CONNECT), with the proxy's credentials; with the host in `no_proxy`, it does not.
    @Test func requestsGoThroughTheProxyUnlessTheHostIsDirect() async throws {
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        let address = "http://anna:secret@127.0.0.1:\(proxy.port)"
        let url = URL(string: "http://fakenft.test:9/api/v1/currencies")!
        let through = HTTPTransport(redirects: 0, proxies: ProxySettings(environment: ["http_proxy": address]))
        let answer = try await through.fetch(.GET, url, limit: 1024, timeout: .seconds(10))
        #expect(answer.status == 200 && answer.body == Data("[]".utf8))
        let heads = proxy.heads
        let basic = "Basic " + Data("anna:secret".utf8).base64EncodedString()
        #expect(heads.count == 2, "\(heads)")
        #expect(heads.first?.hasPrefix("CONNECT fakenft.test:9 HTTP/1.1") == true, "\(heads)")
        #expect(heads.first?.lowercased().contains("proxy-authorization: \(basic.lowercased())") == true)
        #expect(heads.last?.hasPrefix("GET /api/v1/currencies HTTP/1.1") == true, "then the request, in the tunnel")
        let direct = HTTPTransport(
            redirects: 0, proxies: ProxySettings(environment: ["http_proxy": address, "no_proxy": "fakenft.test"]))
        await #expect(throws: TransportError.self) {
            try await direct.fetch(.GET, url, limit: 1024, timeout: .seconds(10))
        }
        #expect(proxy.heads.count == 2, "a host in no_proxy is not sent to the proxy")
    }
}

/// A proxy on a free loopback port that accepts every CONNECT, then answers the request in the
/// tunnel itself with `[]`, and keeps every request head it read. Blocking sockets on a thread
/// of its own.
private final class RecordingProxy: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var recorded: [String] = []

    var heads: [String] { lock.withLock { recorded } }

    init() throws {
        let (listener, port) = try loopbackListener(backlog: 8)
        self.listener = listener
        self.port = port
        Thread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                Thread { [self] in serve(connection) }.start()
            }
        }.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let connect = readHead(connection) else { return }
        lock.withLock { recorded.append(connect) }
        guard write(connection, "HTTP/1.1 200 Connection established\r\n\r\n"), let request = readHead(connection)
        else { return }
        lock.withLock { recorded.append(request) }
        _ = write(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]")
        var byte: UInt8 = 0
        while recv(connection, &byte, 1, 0) > 0 {}  // until the client closes
    }

    /// One request head, up to its blank line.
    private func readHead(_ connection: Int32) -> String? {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard head.count < 16_384, recv(connection, &byte, 1, 0) == 1 else { return nil }
            head.append(byte)
        }
        return String(decoding: head, as: UTF8.self)
    }

    private func write(_ connection: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            == bytes.count
    }
}
