import Hummingbird

/// A client error the server answers with `{"error": "..."}` and a status code.
public struct ServerError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var message: String

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    static func badField(_ field: String, _ why: String) -> ServerError { ServerError(.badRequest, "\(field): \(why)") }
    static func notFound(_ what: String) -> ServerError { ServerError(.notFound, "\(what) not found") }
}
