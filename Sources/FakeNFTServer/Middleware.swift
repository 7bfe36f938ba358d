import Foundation
import Hummingbird

/// Turns every error into `{"error": "..."}` with a proper status; answers 405 for a known
/// path with another method. Client input never becomes a 5xx.
struct JSONErrorMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    /// Paths and their methods, for 405 answers (`*` matches one segment).
    static let knownRoutes: [(pattern: [String], methods: [String])] = [
        (["api", "v1", "nft"], ["GET"]), (["api", "v1", "nft", "*"], ["GET"]),
        (["api", "v1", "collections"], ["GET"]), (["api", "v1", "collections", "*"], ["GET"]),
        (["api", "v1", "users"], ["GET"]), (["api", "v1", "users", "*"], ["GET"]),
        (["api", "v1", "currencies"], ["GET"]), (["api", "v1", "currencies", "*"], ["GET"]),
        (["api", "v1", "profile", "*"], ["GET", "PUT"]),
        (["api", "v1", "orders", "*"], ["GET", "PUT", "POST"]),
        (["api", "v1", "orders", "*", "payment", "*"], ["GET"]),
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServerError {
            return try Self.errorResponse(error.status, error.message)
        } catch let error as HTTPError where error.status == .notFound {
            let segments = request.uri.path.split(separator: "/").map(String.init)
            if let route = Self.knownRoutes.first(where: { Self.matches($0.pattern, segments) }) {
                var response = try Self.errorResponse(.methodNotAllowed, "\(request.method) is not allowed on \(request.uri.path)")
                response.headers[.allow] = route.methods.joined(separator: ", ")
                return response
            }
            return try Self.errorResponse(.notFound, "no such path: \(request.uri.path)")
        } catch let error as HTTPError {
            return try Self.errorResponse(error.status, error.body ?? error.status.reasonPhrase)
        } catch {
            return try Self.errorResponse(.internalServerError, "internal error")
        }
    }

    static func matches(_ pattern: [String], _ segments: [String]) -> Bool {
        pattern.count == segments.count && zip(pattern, segments).allSatisfy { $0 == "*" || $0 == $1 }
    }

    static func errorResponse(_ status: HTTPResponse.Status, _ message: String) throws -> Response {
        try json(["error": message], status: status)
    }
}

/// Checks `X-Practicum-Mobile-Token` when a token is configured.
struct TokenMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let sent = request.headers.first(where: { $0.name.canonicalName == "x-practicum-mobile-token" })?.value else {
            throw ServerError(.unauthorized, "missing X-Practicum-Mobile-Token header")
        }
        guard sent == token else { throw ServerError(.unauthorized, "wrong token") }
        return try await next(request, context)
    }
}

/// Delays every answer, to test clients against a slow server.
struct LatencyMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let milliseconds: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await Task.sleep(for: .milliseconds(milliseconds))
        return try await next(request, context)
    }
}
