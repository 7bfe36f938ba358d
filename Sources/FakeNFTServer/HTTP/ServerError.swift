import Hummingbird

/// A request the server refuses with a status of its own (401, 403, 404, 413): answered with
/// `{"error": "..."}`.
public struct ServerError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var message: String
    /// Headers the answer carries too (`Retry-After`).
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    static func notFound(_ what: String) -> ServerError { ServerError(.notFound, "\(what) not found") }
}
