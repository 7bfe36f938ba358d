import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded

/// A request handed to the router in this process, without a connection: the in-process server's
/// requests and the SSH front's commands.
struct RouterCall: Sendable {
    let responder: Router<ServerContext>.Responder
    private let logger = Logger(label: "fakenft.in-process") { _ in SwiftLogNoOpLogHandler() }

    init(_ responder: Router<ServerContext>.Responder) { self.responder = responder }

    /// The router's response to `method path` (the path with its query), its body not yet
    /// written; `actingOwner` is whose account the request acts for (an SSH command's key's), and
    /// `authority` the server's address as its answers' links name it.
    func response(
        _ method: String, _ path: String, headers: [(String, String)], body: Data?, actingOwner: String? = nil,
        authority: String = "localhost"
    ) async throws -> Response {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        if let body { fields[.contentLength] = String(body.count) }
        guard let method = HTTPRequest.Method(method) else { throw HTTPError(.badRequest) }
        let requestHead = HTTPRequest(
            method: method, scheme: "http", authority: authority, path: path, headerFields: fields)
        let request = Request(head: requestHead, body: RequestBody(buffer: ByteBuffer(bytes: body ?? Data())))
        var context = ServerContext(source: .init(channel: NIOAsyncTestingChannel(), logger: logger))
        context.actingOwner = actingOwner
        do {
            return try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        }
    }

    /// A response's body, read whole.
    static func body(of response: Response) async throws -> Data {
        let collected = CollectedBody()
        try await response.body.write(collected.writer)
        return collected.data
    }
}

/// A response body gathered whole.
private struct CollectedBody {
    private final class Bytes: @unchecked Sendable {
        var data = Data()
    }
    private let bytes = Bytes()
    var data: Data { bytes.data }

    /// The writer that gathers into this body.
    var writer: some ResponseBodyWriter { Writer(bytes: bytes) }

    private struct Writer: ResponseBodyWriter {
        let bytes: Bytes
        mutating func write(_ buffer: ByteBuffer) async throws {
            bytes.data.append(contentsOf: buffer.readableBytesView)
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
