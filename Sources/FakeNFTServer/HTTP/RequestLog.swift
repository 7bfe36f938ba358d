import HTTPTypes
import Hummingbird
import Logging

/// One line for every request as it arrives (`fakenft serve` without `--quiet`), whether the
/// router answers it or it is a repeat answered on the event loop (``RepeatedAnswerHandler``).
/// A command over SSH has a line of its own (``SSHCommands``), not one for each of its requests.
struct RequestLog: RouterMiddleware {
    typealias Context = ServerContext

    /// Logs `method path` (the path with its query) at info level.
    static func note(_ logger: Logger, method: HTTPRequest.Method, path: String) {
        logger.info(
            "Request", metadata: ["hb.request.path": .string(path), "hb.request.method": .string(method.rawValue)])
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if context.actingOwner == nil {
            Self.note(context.logger, method: request.method, path: request.uri.description)
        }
        return try await next(request, context)
    }
}
