import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where the server is and how to talk to it.
public struct APIConfiguration: Sendable, Hashable {
    public var baseURL: URL
    public var token: String?
    /// Seconds before a request gives up.
    public var timeout: TimeInterval
    /// Extra attempts for GETs answered 429 or 503.
    public var retries: Int

    public init(baseURL: URL, token: String? = nil, timeout: TimeInterval = 10, retries: Int = 3) {
        self.baseURL = baseURL; self.token = token; self.timeout = timeout; self.retries = retries
    }
}

/// The one place that knows the FakeNFT API's paths, headers, form encoding and error mapping.
public final class APIClient: Sendable {
    public let configuration: APIConfiguration
    private let session: BoundedSession
    /// The largest JSON answer read; past it a request fails with ``APIError/tooLarge``.
    public static let maxResponseBytes = 4 * 1024 * 1024

    private let logger: Logger

    /// - Parameter logger: gets one line per request (method, path, status, duration) and the
    ///   cause of each failure; never headers, so never the token.
    public init(_ configuration: APIConfiguration, logger: Logger = Logger(label: "fakenft.api") { _ in SwiftLogNoOpLogHandler() }) {
        self.configuration = configuration
        self.logger = logger
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = configuration.timeout
        config.timeoutIntervalForResource = configuration.timeout * Double(configuration.retries + 2)
        config.httpMaximumConnectionsPerHost = CatalogService.maxConcurrentRequests
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = BoundedSession(configuration: config)
    }

    // MARK: Endpoints

    public func collections() async throws -> [NFTCollection] { try await get("collections", query: [("size", "1000")]) }
    public func collection(id: String) async throws -> NFTCollection { try await get("collections/\(Self.pathID(id))") }
    public func nft(id: String) async throws -> NFT { try await get("nft/\(Self.pathID(id))") }
    public func nfts(page: Int, size: Int) async throws -> [NFT] {
        try await get("nft", query: [("page", String(page)), ("size", String(size))])
    }
    /// A page of users; `sortBy` is `field,asc|desc` (e.g. `rating,desc`).
    public func users(page: Int, size: Int, sortBy: String? = nil) async throws -> [User] {
        var query = [("page", String(page)), ("size", String(size))]
        if let sortBy { query.append(("sortBy", sortBy)) }
        return try await get("users", query: query)
    }
    public func user(id: String) async throws -> User { try await get("users/\(Self.pathID(id))") }
    public func profile() async throws -> Profile { try await versionedProfile().value }
    /// The profile and its version (ETag), for changes that must not overwrite others'.
    public func versionedProfile() async throws -> Versioned<Profile> { try await get("profile/1") }
    /// Replaces the likes only if the profile is still at `version` (when given); a profile
    /// changed in between is ``APIError/versionConflict``.
    public func updateLikes(_ likes: [String], ifVersion version: String?) async throws -> Versioned<Profile> {
        try await send("PUT", "profile/1", form: [("likes", IDList.formValue(likes))], ifVersion: version)
    }
    /// Sends only the fields set in `update`.
    public func updateProfile(_ update: ProfileUpdate) async throws -> Profile {
        try await updateVersionedProfile(update).value
    }
    public func updateVersionedProfile(_ update: ProfileUpdate) async throws -> Versioned<Profile> {
        try await send("PUT", "profile/1", form: update.formFields)
    }
    public func order() async throws -> Order { try await versionedOrder().value }
    public func versionedOrder() async throws -> Versioned<Order> { try await get("orders/1") }
    public func updateOrder(nfts: [String]) async throws -> Order { try await updateOrder(nfts: nfts, ifVersion: nil).value }
    /// Replaces the order's NFTs only if it is still at `version` (when given).
    public func updateOrder(nfts: [String], ifVersion version: String?) async throws -> Versioned<Order> {
        try await send("PUT", "orders/1", form: [("nfts", IDList.formValue(nfts))], ifVersion: version)
    }
    public func currencies() async throws -> [Currency] { try await get("currencies") }
    public func currency(id: String) async throws -> Currency { try await get("currencies/\(Self.pathID(id))") }
    public func pay(currencyID: String) async throws -> PaymentResult {
        try await get("orders/1/payment/\(Self.pathID(currencyID))", retry: false)
    }

    // MARK: Transport

    private static func pathID(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? id
    }

    private func url(_ path: String, query: [(String, String)] = []) -> URL {
        var components = URLComponents(url: configuration.baseURL.appendingPathComponent("api/v1/" + path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        return components.url!
    }

    private func request(_ method: String, _ url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = configuration.timeout
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token = configuration.token { request.setValue(token, forHTTPHeaderField: "X-Practicum-Mobile-Token") }
        return request
    }

    /// GET with retries on 429/503 (idempotent), honouring Retry-After.
    private func get<T: Decodable & Sendable>(_ path: String, query: [(String, String)] = [], retry: Bool = true) async throws -> T {
        try await get(path, query: query, retry: retry).value
    }

    private func get<T: Decodable & Sendable>(_ path: String, query: [(String, String)] = [], retry: Bool = true) async throws -> Versioned<T> {
        let request = request("GET", url(path, query: query))
        var attempt = 0
        while true {
            do {
                return try await perform(request)
            } catch let error as RetryableStatus {
                attempt += 1
                guard retry, attempt <= configuration.retries else { throw error.apiError }
                let backoff = error.retryAfter ?? 0.2 * pow(2, Double(attempt - 1))
                try await Task.sleep(for: .milliseconds(Int(min(backoff, Self.maxRetryAfter) * 1000)))
            }
        }
    }

    private func send<T: Decodable & Sendable>(_ method: String, _ path: String, form: [(String, String)],
                                    ifVersion version: String? = nil) async throws -> Versioned<T> {
        var request = request(method, url(path))
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        if let version { request.setValue(version, forHTTPHeaderField: "If-Match") }
        request.httpBody = Data(FormEncoding.encode(form).utf8)
        do { return try await perform(request) } catch let error as RetryableStatus { throw error.apiError }
    }

    private struct RetryableStatus: Error {
        var apiError: APIError
        var retryAfter: TimeInterval?
    }

    private func perform<T: Decodable & Sendable>(_ request: URLRequest) async throws -> Versioned<T> {
        let data: Data, response: URLResponse
        let what = "\(request.httpMethod ?? "GET") \(request.url?.path ?? "")"
        let started = ContinuousClock.now
        do {
            (data, response) = try await session.data(for: request, limit: Self.maxResponseBytes)
        } catch is ResponseTooLarge {
            logger.error("\(what) failed: the answer is larger than \(Self.maxResponseBytes) bytes")
            throw APIError.tooLarge(limitBytes: Self.maxResponseBytes)
        } catch {
            logger.error("\(what) failed: \(error)")
            throw Self.map(error, host: configuration.baseURL.absoluteString)
        }
        guard let http = response as? HTTPURLResponse else { throw APIError.undecodable("not an HTTP response") }
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.log(level: http.statusCode < 400 ? .info : .warning, "\(what) \(http.statusCode) in \(String(format: "%.1f", milliseconds)) ms")
        switch http.statusCode {
        case 200..<300:
            do {
                return Versioned(value: try JSONDecoder().decode(T.self, from: data), version: Self.entityTag(http))
            } catch {
                throw APIError.undecodable(String(describing: error))
            }
        case 401, 403: throw APIError.unauthorized
        case 404: throw APIError.notFound
        case 412: throw APIError.versionConflict
        case 429, 503:
            throw RetryableStatus(apiError: .server(status: http.statusCode, message: Self.errorMessage(data)),
                                  retryAfter: Self.retryAfter(http.value(forHTTPHeaderField: "Retry-After")))
        default:
            throw APIError.server(status: http.statusCode, message: Self.errorMessage(data))
        }
    }

    /// Seconds from a `Retry-After` header: a finite number, clamped to 0...`maxRetryAfter`;
    /// nil for anything else (an HTTP date, "nan", garbage), which falls back to backoff.
    static func retryAfter(_ header: String?) -> TimeInterval? {
        guard let seconds = header.flatMap({ TimeInterval($0.trimmingCharacters(in: .whitespaces)) }), seconds.isFinite else { return nil }
        return min(max(seconds, 0), maxRetryAfter)
    }

    /// The longest wait between retries, whatever the server asks.
    static let maxRetryAfter: TimeInterval = 10

    /// The answer's ETag when it is a plausible one: short printable ASCII, so a hostile server
    /// cannot smuggle anything into the next request's headers.
    private static func entityTag(_ response: HTTPURLResponse) -> String? {
        guard let tag = response.value(forHTTPHeaderField: "ETag"), !tag.isEmpty, tag.utf8.count <= 128,
              tag.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value < 0x7F }) else { return nil }
        return tag
    }

    /// The `error` (or `message`) field of a JSON error body.
    private static func errorMessage(_ data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (object["error"] ?? object["message"]) as? String
    }

    static func map(_ error: any Error, host: String) -> APIError {
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else { return .offline(host) }
        switch urlError.code {
        case .timedOut: return .timeout
        case .cancelled: return .cancelled
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            return .undecodable(urlError.localizedDescription)
        default: return .offline(host)
        }
    }
}
