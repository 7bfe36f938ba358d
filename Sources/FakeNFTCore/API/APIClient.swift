import FakeNFTModels
import Foundation
import Logging
import NIOHTTP1
import Synchronization

/// Where the server is and how to talk to it.
public struct APIConfiguration: Sendable, Hashable {
    public var baseURL: URL
    public var token: String?
    /// Seconds before a request gives up.
    public var timeout: TimeInterval
    /// Extra attempts for GETs answered 429 or 503.
    public var retries: Int
    /// The secret of the SSH session the app runs in, sent with every request
    /// (``SSHSessionVariables/header``): the server counts the visitor, not loopback, and a
    /// sign-in moves the session's key to the account.
    public var sshSession: String?

    public init(
        baseURL: URL, token: String? = nil, timeout: TimeInterval = 10, retries: Int = 3, sshSession: String? = nil
    ) {
        self.baseURL = baseURL
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.sshSession = sshSession
    }

    /// The headers every request carries: the token and the SSH session's secret, when given.
    func identityHeaders() -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let token { headers.add(name: "X-Practicum-Mobile-Token", value: token) }
        if let sshSession { headers.add(name: SSHSessionVariables.header, value: sshSession) }
        return headers
    }
}

/// The one place that knows the FakeNFT API's paths, headers, form encoding and error mapping.
public final class APIClient: Sendable {
    public let configuration: APIConfiguration
    /// The most API requests in flight at once (a 100-NFT collection opens within 400 ms on a
    /// server that answers in 50 ms with 16: docs/benchmarks.md).
    public static let maxConcurrentRequests = 16
    /// The API's connections: no redirects (the token must not follow one to another host), no compression.
    private static let sharedTransport = HTTPTransport(redirects: 0, connectionsPerHost: maxConcurrentRequests)
    let transport: any APIExchange
    /// What the live updates go through: connections of their own over HTTP, else ``transport``.
    private let eventsExchange: any APIExchange
    /// The largest JSON answer read; past it a request fails with ``APIError/tooLarge``.
    public static let maxResponseBytes = 4 * 1024 * 1024

    private let logger: Logger
    /// What its time-outs and retries wait by.
    public let clock: AppClock
    /// The newest generation the server answered (`FakeNFT-Generation`), sent back with every
    /// request: behind a proxy over several servers, whichever answers has this app's own
    /// writes (docs/server.md).
    private let generation = Mutex<Int?>(nil)

    /// - Parameters:
    ///   - logger: gets one line per request (method, path, status, duration) and the cause of
    ///     each failure; never headers, so never the token.
    ///   - clock: what time-outs and retries wait by (a test's own, in tests).
    public convenience init(
        _ configuration: APIConfiguration,
        logger: Logger = Logger(label: "fakenft.api") { _ in SwiftLogNoOpLogHandler() }, clock: AppClock = .continuous
    ) {
        self.init(
            configuration, exchange: Self.sharedTransport, eventsExchange: ServerEvents.transport, logger: logger,
            clock: clock)
    }

    /// A client whose requests go through `exchange` (a server's router in this process, for tests).
    package init(
        _ configuration: APIConfiguration, exchange: any APIExchange, eventsExchange: (any APIExchange)? = nil,
        logger: Logger = Logger(label: "fakenft.api") { _ in SwiftLogNoOpLogHandler() }, clock: AppClock = .continuous
    ) {
        self.configuration = configuration
        transport = exchange
        self.eventsExchange = eventsExchange ?? exchange
        self.logger = logger
        self.clock = clock
    }

    /// The server's live updates, reached the way this client reaches the server, by its clock.
    public func events(logger: Logger = Logger(label: "fakenft.events") { _ in SwiftLogNoOpLogHandler() })
        -> ServerEvents
    {
        ServerEvents(configuration, exchange: eventsExchange, logger: logger, clock: clock)
    }

    // MARK: Endpoints

    /// Page `page` (0-based) of the collections, `size` per page.
    public func collections(page: Int, size: Int) async throws -> [NFTCollection] {
        try await get("collections", query: [("page", String(page)), ("size", String(size))])
    }
    public func collection(id: String) async throws -> NFTCollection { try await get("collections/\(Self.pathID(id))") }
    public func nft(id: String) async throws -> NFT { try await get("nft/\(Self.pathID(id))") }
    public func nfts(page: Int, size: Int) async throws -> [NFT] {
        try await get("nft", query: [("page", String(page)), ("size", String(size))])
    }
    /// A page of users; `sortBy` is `field,asc|desc` (e.g. `rating,desc`); `name` asks for the
    /// users whose name contains it (an extension: other servers ignore it).
    public func users(page: Int, size: Int, sortBy: String? = nil, name: String? = nil) async throws -> [User] {
        var query = [("page", String(page)), ("size", String(size))]
        if let sortBy { query.append(("sortBy", sortBy)) }
        if let name { query.append(("name", name)) }
        return try await get("users", query: query)
    }
    public func user(id: String) async throws -> User { try await get("users/\(Self.pathID(id))") }
    public func profile() async throws -> Profile { try await versionedProfile().value }
    /// The profile and its version (ETag), for changes that must not overwrite others'.
    public func versionedProfile() async throws -> Versioned<Profile> { try await get("profile/1") }
    /// Replaces the likes only if the profile is still at `version` (when given); a profile
    /// changed in between is ``APIError/versionConflict``.
    public func updateLikes(_ likes: [String], ifVersion version: String?) async throws -> Versioned<Profile> {
        try await send(.PUT, "profile/1", form: [("likes", IDList.formValue(likes))], ifVersion: version)
    }
    /// Sends only the fields set in `update`.
    public func updateVersionedProfile(_ update: ProfileUpdate) async throws -> Versioned<Profile> {
        try await send(.PUT, "profile/1", form: update.formFields)
    }
    public func order() async throws -> Order { try await versionedOrder().value }
    public func versionedOrder() async throws -> Versioned<Order> { try await get("orders/1") }
    /// Replaces the order's NFTs only if it is still at `version` (when given).
    public func updateOrder(nfts: [String], ifVersion version: String?) async throws -> Versioned<Order> {
        try await send(.PUT, "orders/1", form: [("nfts", IDList.formValue(nfts))], ifVersion: version)
    }
    public func currencies() async throws -> [Currency] { try await get("currencies") }
    public func currency(id: String) async throws -> Currency { try await get("currencies/\(Self.pathID(id))") }
    public func pay(currencyID: String) async throws -> PaymentResult {
        try await get("orders/1/payment/\(Self.pathID(currencyID))", retry: false)
    }

    // MARK: Accounts (an extension of the API that `fakenft serve` offers)

    /// A new account; its answer carries the token that signs it in.
    public func signUp(name: String, email: String, password: String) async throws -> Account {
        try await send(.POST, "auth/register", form: [("name", name), ("email", email), ("password", password)]).value
    }
    public func signIn(email: String, password: String) async throws -> Account {
        try await send(.POST, "auth/login", form: [("email", email), ("password", password)]).value
    }
    /// Ends the configured token's sign-in.
    public func signOut() async throws {
        let _: Versioned<NoContent> = try await send(.POST, "auth/logout", form: [])
    }
    /// Whose the configured token is; ``APIError/unauthorized`` when it is not signed in, and
    /// ``APIError/notFound`` from a server without accounts.
    public func session() async throws -> Account { try await get("auth/session", retry: false) }
    /// Page `page` (0-based) of the paid orders of the configured token's account (the shared
    /// profile's without one), the latest first; ``APIError/notFound`` from a server that keeps none.
    public func paidOrders(page: Int, size: Int) async throws -> [PaidOrder] {
        try await get("auth/orders", query: [("page", String(page)), ("size", String(size))])
    }

    /// The SSH keys that open the configured token's account.
    public func accountKeys() async throws -> [AccountKey] { try await get("auth/keys") }

    /// Sends usage events (an extension of the API that `fakenft serve` offers); never retried here.
    public func sendUsage(_ batch: UsageBatch) async throws {
        let _: Versioned<NoContent> = try await send(
            .POST, "usage", body: try JSONEncoder().encode(batch), contentType: "application/json")
    }

    // MARK: Transport

    private static func pathID(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? id
    }

    private func url(_ path: String, query: [(String, String)] = []) -> URL {
        var components = URLComponents(
            url: configuration.baseURL.appendingPathComponent("api/v1/" + path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        return components.url!
    }

    /// One request: what is sent, and how the log names it.
    struct Request {
        var method: HTTPMethod
        var url: URL
        var headers: HTTPHeaders
        var body: Data?
        /// The generation sent with it.
        var generation: Int?
        var logName: String { "\(method.rawValue) \(url.path)" }
    }

    func request(_ method: HTTPMethod, _ url: URL) -> Request {
        var headers = configuration.identityHeaders()
        headers.add(name: "Accept", value: "application/json")
        let generation = generation.withLock { $0 }
        if let generation { headers.add(name: GenerationHeader.name, value: String(generation)) }
        return Request(method: method, url: url, headers: headers, generation: generation)
    }

    /// Keeps the generation an answer carries: the newest seen, or a lower one than was sent
    /// (the server's data was made again and counts from the start).
    func note(_ headers: HTTPHeaders, answering request: Request) {
        guard let answered = headers.first(name: GenerationHeader.name).flatMap(GenerationHeader.parse) else { return }
        generation.withLock { kept in
            kept = request.generation.map { answered < $0 } == true ? answered : max(kept ?? 0, answered)
        }
    }

    /// GET with retries on 429/503 (idempotent), honouring Retry-After.
    private func get<T: Decodable & Sendable>(_ path: String, query: [(String, String)] = [], retry: Bool = true)
        async throws -> T
    {
        try await get(path, query: query, retry: retry).value
    }

    private func get<T: Decodable & Sendable>(_ path: String, query: [(String, String)] = [], retry: Bool = true)
        async throws -> Versioned<T>
    {
        let request = request(.GET, url(path, query: query))
        var attempt = 0
        while true {
            do {
                return try await perform(request)
            } catch let error as RetryableStatus {
                attempt += 1
                guard retry, attempt <= configuration.retries else { throw error.apiError }
                let backoff = error.retryAfter ?? 0.2 * pow(2, Double(attempt - 1))
                do { try await clock.sleep(for: .milliseconds(Int(min(backoff, Self.maxRetryAfter) * 1000))) } catch {
                    throw APIError.cancelled
                }
            }
        }
    }

    private func send<T: Decodable & Sendable>(
        _ method: HTTPMethod, _ path: String, form: [(String, String)],
        ifVersion version: String? = nil
    ) async throws -> Versioned<T> {
        try await send(
            method, path, body: Data(FormEncoding.encode(form).utf8), contentType: "application/x-www-form-urlencoded",
            ifVersion: version)
    }

    private func send<T: Decodable & Sendable>(
        _ method: HTTPMethod, _ path: String, body: Data, contentType: String, ifVersion version: String? = nil
    ) async throws -> Versioned<T> {
        var request = request(method, url(path))
        request.headers.add(name: "Content-Type", value: contentType)
        if let version { request.headers.add(name: "If-Match", value: version) }
        request.body = body
        do { return try await perform(request) } catch let error as RetryableStatus {  // changes are never retried
            throw error.apiError == .server(status: 429, message: error.apiError.serverMessage)
                ? APIError.rateLimited(retryAfter: error.serverWait) : error.apiError
        }
    }

    private struct RetryableStatus: Error {
        var apiError: APIError
        var retryAfter: TimeInterval?
        /// The seconds the server asked to wait, as it said them (up to a day).
        var serverWait: Int?
    }

    /// The answer of a request that answers nothing (204).
    private struct NoContent: Decodable, Sendable {}

    private func perform<T: Decodable & Sendable>(_ request: Request) async throws -> Versioned<T> {
        let started = ContinuousClock.now
        let answer: HTTPAnswer
        do {
            answer = try await transport.fetch(
                request.method, request.url, headers: request.headers, body: request.body,
                limit: Self.maxResponseBytes, timeout: .seconds(configuration.timeout), clock: clock)
        } catch {
            logger.error("\(request.logName) failed: \(error)")
            throw Self.map(error, host: configuration.baseURL.absoluteString)
        }
        note(answer.headers, answering: request)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.log(
            level: answer.status < 400 ? .info : .warning,
            "\(request.logName) \(answer.status) in \(String(format: "%.1f", milliseconds)) ms")
        if answer.status >= 400, let message = Self.errorMessage(answer.body) {  // the user sees the app's own words
            let printable = String(
                String.UnicodeScalarView(
                    message.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(300)))
            logger.warning("\(request.logName): the server said \(printable)")
        }
        switch answer.status {
        case 204 where T.self == NoContent.self:
            return Versioned(value: NoContent() as! T, version: nil)
        case 200..<300:
            do {
                return Versioned(
                    value: try JSONDecoder().decode(T.self, from: answer.body), version: Self.entityTag(answer.headers))
            } catch {
                throw APIError.undecodable(String(describing: error))
            }
        case 401, 403: throw APIError.unauthorized
        case 404: throw APIError.notFound
        case 412: throw APIError.versionConflict
        case 429, 503:
            let wait = answer.headers.first(name: "Retry-After")
            let cannotStore = answer.headers.first(name: APIProblem.header) == APIProblem.cannotStore
            throw RetryableStatus(
                apiError: cannotStore
                    ? .cannotStore : .server(status: answer.status, message: Self.errorMessage(answer.body)),
                retryAfter: Self.retryAfter(wait),
                serverWait: wait.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map {
                    min(max($0, 0), 86_400)
                })
        default:
            throw APIError.server(status: answer.status, message: Self.errorMessage(answer.body))
        }
    }

    /// Seconds from a `Retry-After` header: a finite number, clamped to 0...`maxRetryAfter`;
    /// nil for anything else (an HTTP date, "nan", garbage), which falls back to backoff.
    static func retryAfter(_ header: String?) -> TimeInterval? {
        guard let seconds = header.flatMap({ TimeInterval($0.trimmingCharacters(in: .whitespaces)) }), seconds.isFinite
        else { return nil }
        return min(max(seconds, 0), maxRetryAfter)
    }

    /// The longest wait between retries, whatever the server asks.
    static let maxRetryAfter: TimeInterval = 10

    /// The answer's ETag when it is a plausible one: short printable ASCII, so a hostile server
    /// cannot smuggle anything into the next request's headers.
    private static func entityTag(_ headers: HTTPHeaders) -> String? {
        guard let tag = headers.first(name: "ETag"), !tag.isEmpty, tag.utf8.count <= 128,
            tag.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value < 0x7F })
        else { return nil }
        return tag
    }

    /// The `error` (or `message`) field of a JSON error body.
    private static func errorMessage(_ data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (object["error"] ?? object["message"]) as? String
    }

    static func map(_ error: TransportError, host: String) -> APIError {
        switch error {
        case .tooLarge(let limit): return .tooLarge(limitBytes: limit)
        case .timedOut: return .timeout
        case .cancelled: return .cancelled
        case .malformed(let reason): return .undecodable(reason)
        case .unreachable: return .offline(host)
        }
    }
}
