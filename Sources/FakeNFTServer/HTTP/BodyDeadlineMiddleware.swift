import FakeNFTRequests
import Hummingbird
import NIOCore

/// Every request's body, read here once whether its route reads one or not: all there within
/// ``bodyDeadline`` (else the connection closes: a body trickled a byte at a time would hold it
/// forever, a GET's or an unknown path's too), at most ``Routes/maxBodySize`` (else a 413), then
/// handed on whole to the route.
struct BodyDeadlineMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// How long a client may take to send a request's body.
    static let bodyDeadline = Duration.seconds(10)
    /// The server's, which watch the bodies.
    let deadlines: Deadlines

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var request = request
        request.body = RequestBody(buffer: try await collect(request, context))
        return try await next(request, context)
    }

    private func collect(_ request: Request, _ context: Context) async throws -> ByteBuffer {
        let bodyDeadline = Self.bodyDeadline, end = ContinuousClock.now + bodyDeadline
        let watch = deadlines.watch(for: bodyDeadline) { passed in
            if passed { context.closeConnection() }  // ends the collecting, which waits for more
        }
        defer { deadlines.lift(watch) }
        do {
            return try await request.body.collect(upTo: Routes.maxBodySize)
        } catch is NIOTooManyBytesError {
            throw ServerError(.contentTooLarge, "body larger than \(Routes.maxBodySize / 1024) KiB")
        } catch  where ContinuousClock.now >= end {
            throw ServerError(.requestTimeout, "the body did not arrive within \(bodyDeadline)")
        } catch {
            throw RequestError("the body could not be read: \(error)")
        }
    }
}
