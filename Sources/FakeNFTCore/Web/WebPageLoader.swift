import Foundation

/// Fetches a web page for the reader pane and reduces it to a ``ReadableDocument``.
public struct WebPageLoader: Sendable {
    public var timeout: TimeInterval
    /// Pages larger than this are refused (the reader shows text, not megabytes).
    public static let maxBytes = 2 * 1024 * 1024

    public init(timeout: TimeInterval = 10) { self.timeout = timeout }

    /// The page at `url`; throws ``WebPageError`` with a reason fit for the user.
    public func load(_ url: URL) async throws -> ReadableDocument {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw WebPageError(reason: "only http and https pages can be shown")
        }
        let answer: HTTPAnswer
        do {
            answer = try await HTTPTransport.web.fetch(.GET, url, headers: ["Accept": "text/html, */*;q=0.5", "Accept-Encoding": "gzip, deflate"],
                                                       limit: Self.maxBytes, timeout: .seconds(timeout))
        } catch {
            throw WebPageError(reason: Self.reason(error))
        }
        guard (200..<300).contains(answer.status) else { throw WebPageError(reason: "the site answered \(answer.status)") }
        return ReadableDocument.parse(html: answer.body, baseURL: answer.url)
    }

    private static func reason(_ error: TransportError) -> String {
        switch error {
        case .tooLarge: return "the page is larger than \(maxBytes / (1024 * 1024)) MB"
        case .timedOut: return "the site did not answer in time"
        case .cancelled: return "cancelled"
        case .malformed(let reason), .unreachable(let reason): return "the site cannot be reached (\(reason))"
        }
    }
}

/// Why a web page cannot be shown, in words for the user.
public struct WebPageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}
