import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches a web page for the reader pane and reduces it to a ``ReadableDocument``.
public struct WebPageLoader: Sendable {
    public var timeout: TimeInterval
    /// Pages larger than this are refused (the reader shows text, not megabytes).
    public static let maxBytes = 2 * 1024 * 1024
    private static let session = BoundedSession(configuration: .ephemeral)

    public init(timeout: TimeInterval = 10) { self.timeout = timeout }

    /// The page at `url`; throws ``WebPageError`` with a reason fit for the user.
    public func load(_ url: URL) async throws -> ReadableDocument {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw WebPageError(reason: "only http and https pages can be shown")
        }
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        request.setValue("text/html, */*;q=0.5", forHTTPHeaderField: "Accept")
        let data: Data, response: URLResponse
        do {
            (data, response) = try await Self.session.data(for: request, limit: Self.maxBytes)
        } catch is ResponseTooLarge {
            throw WebPageError(reason: "the page is larger than \(Self.maxBytes / (1024 * 1024)) MB")
        } catch let error as URLError {
            throw WebPageError(reason: error.code == .timedOut ? "the site did not answer in time" : "the site cannot be reached (\(error.localizedDescription))")
        }
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw WebPageError(reason: "the site answered \(http.statusCode)")
        }
        return ReadableDocument.parse(html: data, baseURL: response.url ?? url)
    }
}

public struct WebPageError: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}
