import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression

/// A whole answer, read within a size limit and a time limit.
package struct HTTPAnswer: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: Data
    /// Where the answer came from, after any redirects.
    package var url: URL

    package init(status: Int, headers: HTTPHeaders, body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// How the API client's requests reach a server: over HTTP (``HTTPTransport``, what the app
/// uses), or handed to a server's router in this process (the view models' tests).
package protocol APIExchange: Sendable {
    /// The answer to `method url`, read whole, within `timeout` by `clock`; throws ``TransportError``.
    func fetch(
        _ method: HTTPMethod, _ url: URL, headers: HTTPHeaders, body: Data?, limit: Int, timeout: Duration,
        clock: AppClock
    ) async throws(TransportError) -> HTTPAnswer

    /// `GET url` read as it comes (the live updates): `status` gets the answer's status, `chunk`
    /// each piece of the body until it ends; `idle` (by `clock`) ends a body that stays silent that long.
    func stream(
        _ url: URL, headers: HTTPHeaders, idle: Duration, clock: AppClock, status: (Int) throws -> Void,
        chunk: @escaping @Sendable (ByteBuffer) throws -> Void
    ) async throws
}

/// Why a request got no answer.
package enum TransportError: Error, Sendable, Equatable {
    /// The body passed the caller's limit (a huge or endless answer); reading stopped there.
    case tooLarge(limit: Int)
    case timedOut
    /// The server cannot be reached or closed the connection; the reason is for the log.
    case unreachable(String)
    /// Not HTTP, or HTTP this client refuses (the reason is for the log).
    case malformed(String)
    case cancelled
}

/// HTTP over AsyncHTTPClient, for the API and for web pages.
///
/// The body is read as a stream with backpressure, so an endless or huge answer costs at most
/// `limit` bytes: reading stops and the connection is closed once it passes the limit.
/// (FoundationNetworking's URLSession kept reading an endless body after the task was cancelled
/// and grew the app by gigabytes.) A cancelled caller cancels the request.
struct HTTPTransport: APIExchange {
    /// Straight to the hosts.
    private let direct: HTTPClient
    /// Through each proxy the environment names (``ProxySettings``).
    private let proxied: [ProxySettings.Proxy: HTTPClient]
    private let proxies: ProxySettings

    /// Clients of its own (their connections are not shared with the other transports).
    /// - Parameters:
    ///   - redirects: how many redirects to follow (http and https only); 0 follows none (the
    ///     API's token must not follow one to another host).
    ///   - connectionsPerHost: the most connections to one host at once.
    ///   - decompressionLimit: accept gzip and deflate bodies up to this many bytes once
    ///     decompressed; nil asks for none.
    ///   - proxies: which requests go through which proxy.
    init(
        redirects: Int, connectionsPerHost: Int = 8, decompressionLimit: Int? = nil,
        proxies: ProxySettings = ProxySettings()
    ) {
        func client(through proxy: ProxySettings.Proxy?) -> HTTPClient {
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: redirects > 0 ? .follow(max: redirects, allowCycles: false) : .disallow,
                timeout: .init(connect: .seconds(10)),
                proxy: proxy.map { proxy in
                    .server(
                        host: proxy.host, port: proxy.port,
                        authorization: proxy.user.map { .basic(username: $0, password: proxy.password ?? "") })
                },
                decompression: decompressionLimit.map { .enabled(limit: .size($0)) } ?? .disabled)
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerHost
            // a refused connection is "offline" at once
            configuration.connectionPool.retryConnectionEstablishment = false
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }
        direct = client(through: nil)
        proxied = Dictionary(
            uniqueKeysWithValues: Set([proxies.http, proxies.https].compactMap { $0 }).map { ($0, client(through: $0)) }
        )
        self.proxies = proxies
    }

    /// The client for `url`: through its proxy, if the environment names one for it.
    private func client(for url: URL) -> HTTPClient { proxies.proxy(for: url).flatMap { proxied[$0] } ?? direct }

    /// `GET url` read as it comes: `chunk` gets each piece of the body until it ends; throws
    /// ``TransportError`` (with the status when it is not 200: ``TransportError/malformed(_:)``
    /// names it). `idle` (by `clock`) ends a body that stays silent that long.
    func stream(
        _ url: URL, headers: HTTPHeaders, idle: Duration, clock: AppClock, status: (Int) throws -> Void,
        chunk: @escaping @Sendable (ByteBuffer) throws -> Void
    ) async throws {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers = headers
        do {
            let response = try await client(for: url).execute(request, timeout: .seconds(30))
            try status(Int(response.status.code))
            let last = LastChunk(clock: clock)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await piece in response.body {
                        last.touch()
                        try chunk(piece)
                    }
                }
                group.addTask {  // a silent connection is a dead one
                    // Woken when the silence would reach `idle`, not every second: an idle app
                    // (a hundred over SSH) sleeps between the server's heartbeats.
                    while true {
                        try await clock.sleep(untilElapsed: last.at + idle)
                        if last.silence >= idle { throw TransportError.timedOut }
                    }
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw Self.reason(error, limit: 0)
        }
    }

    /// When the last chunk came, by a clock.
    private final class LastChunk: @unchecked Sendable {
        private let clock: AppClock
        private let lock = NSLock()
        private var last: Duration
        init(clock: AppClock) {
            self.clock = clock
            last = clock.elapsed()
        }
        func touch() { lock.withLock { last = clock.elapsed() } }
        var at: Duration { lock.withLock { last } }
        var silence: Duration { lock.withLock { clock.elapsed() - last } }
    }

    /// The answer to `method url`, read whole; throws ``TransportError``.
    ///
    /// - Parameters:
    ///   - limit: the most body bytes read; past it, ``TransportError/tooLarge(limit:)``.
    ///   - timeout: the whole exchange, from connecting to the last body byte, by `clock`.
    func fetch(
        _ method: HTTPMethod, _ url: URL, headers: HTTPHeaders = [:], body: Data? = nil,
        limit: Int, timeout: Duration, clock: AppClock = .continuous
    ) async throws(TransportError) -> HTTPAnswer {
        let client = client(for: url)
        do {
            return try await withThrowingTaskGroup(of: HTTPAnswer?.self) { group in
                group.addTask {
                    var request = HTTPClientRequest(url: url.absoluteString)
                    request.method = method
                    request.headers = headers
                    if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
                    let response = try await client.execute(request, deadline: .distantFuture)  // the clock's, below
                    let bytes = try await response.body.collect(upTo: limit)
                    return HTTPAnswer(
                        status: Int(response.status.code), headers: response.headers,
                        body: Data(bytes.readableBytesView), url: response.url ?? url)
                }
                group.addTask {
                    try await clock.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let answer = try await group.next(), let answer else { throw TransportError.timedOut }
                return answer
            }
        } catch {
            throw Self.reason(error, limit: limit)
        }
    }

    private static func reason(_ error: any Error, limit: Int) -> TransportError {
        switch error {
        case let error as TransportError: return error
        case is NIOTooManyBytesError: return .tooLarge(limit: limit)
        case let error as NIOHTTPDecompression.DecompressionError where error == .limit: return .tooLarge(limit: limit)
        case is CancellationError: return .cancelled
        case is HTTPParserError: return .malformed(String(describing: error))
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: return .timedOut
            case .cancelled: return Task.isCancelled ? .cancelled : .timedOut
            case .redirectLimitReached, .redirectCycleDetected, .invalidURL, .emptyHost:
                return .malformed(String(describing: error))
            default: return .unreachable(String(describing: error))
            }
        default: return Task.isCancelled ? .cancelled : .unreachable(String(describing: error))
        }
    }
}
