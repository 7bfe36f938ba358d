import Foundation

/// Fetches a web page for the reader pane and reduces it to a ``ReadableDocument``.
public struct WebPageLoader: Sendable {
    public var timeout: TimeInterval
    /// Pages larger than this are refused (the reader shows text, not megabytes).
    public static let maxBytes = 2 * 1024 * 1024
    /// Up to five redirects, gzip and deflate within the page limit.
    private static let transport = HTTPTransport(redirects: 5, decompressionLimit: maxBytes)

    public init(timeout: TimeInterval = 10) { self.timeout = timeout }

    /// The page at `url`; throws ``WebPageError`` with a reason fit for the user.
    public func load(_ url: URL) async throws -> ReadableDocument {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw WebPageError.notWeb
        }
        let answer: HTTPAnswer
        do {
            answer = try await Self.transport.fetch(
                .GET, url, headers: ["Accept": "text/html, */*;q=0.5", "Accept-Encoding": "gzip, deflate"],
                limit: Self.maxBytes, timeout: .seconds(timeout))
        } catch {
            throw Self.failure(error)
        }
        guard (200..<300).contains(answer.status) else { throw WebPageError.status(answer.status) }
        return ReadableDocument.parse(
            html: answer.body, baseURL: answer.url, contentType: answer.headers.first(name: "content-type"))
    }

    private static func failure(_ error: TransportError) -> WebPageError {
        switch error {
        case .tooLarge: .tooLarge(megabytes: maxBytes / (1024 * 1024))
        case .timedOut: .timedOut
        case .cancelled: .cancelled
        case .malformed(let reason), .unreachable(let reason): .unreachable(reason)
        }
    }
}

/// Why a web page cannot be shown (the app words it for the user; ``description`` is for logs).
public enum WebPageError: Error, Sendable, Equatable, CustomStringConvertible {
    case notWeb
    case invalidAddress
    case status(Int)
    case tooLarge(megabytes: Int)
    case timedOut
    case cancelled
    /// The site cannot be reached, and the transport's reason.
    case unreachable(String)
    /// Anything else, as it was described.
    case other(String)

    public var description: String {
        switch self {
        case .notWeb: "only http and https pages can be shown"
        case .invalidAddress: "this is not a valid address"
        case .status(let status): "the site answered \(status)"
        case .tooLarge(let megabytes): "the page is larger than \(megabytes) MB"
        case .timedOut: "the site did not answer in time"
        case .cancelled: "cancelled"
        case .unreachable(let reason): "the site cannot be reached (\(reason))"
        case .other(let reason): reason
        }
    }
}
