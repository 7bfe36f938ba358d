import FakeNFTModels
import Hummingbird
import HTTPTypes

/// Reading one's own writes across servers. Every API answer carries the generation of the
/// read model it was answered from (`FakeNFT-Generation`, at least that of the change it
/// acknowledged); a client that sends the last one it saw back in a request is answered from a
/// model at least that new, by whichever server gets it (``Store/reach(_:patience:)``). A client
/// that sends nothing reads from this server's model as it is: its own writes through this
/// server at once, other servers' within the change feed's delay (docs/server.md).
struct ConsistencyMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    static let header = HTTPField.Name(GenerationHeader.name)!
    let store: Store

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.uri.path.hasPrefix("/api/") else { return try await next(request, context) }
        if let sent = request.headers[Self.header] {
            guard let generation = GenerationHeader.parse(sent) else {
                throw ServerError(.badRequest, "\(Self.header) must be a generation a server answered (digits)")
            }
            try await store.reach(generation)
        }
        var response = try await next(request, context)
        response.headers[Self.header] = String(store.generation)
        return response
    }
}
