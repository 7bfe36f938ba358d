import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import ServiceLifecycle

/// The server without a socket: its store and its router, answering requests handed to it in
/// this process (tests of the app's view models: no port, no connection, the same routes,
/// middleware and data as a running server), run by the same lifecycle as a running server (its
/// background jobs, the store's loops and the usage counts' writer in one service group) without
/// the listeners. Live updates are served too, read as they come (``stream(_:headers:status:chunk:)``).
public final class InProcessServer: Sendable {
    /// An answer: its status, headers (names in lower case) and whole body.
    public struct Answer: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: Data
    }

    private let store: Store
    private let group: ServiceGroup
    /// The server's own task: its lifecycle, until ``close()``.
    private let task: Task<Void, any Error>
    private let responder: Router<ServerContext>.Responder
    private let logger = Logger(label: "fakenft.in-process") { _ in SwiftLogNoOpLogHandler() }

    /// Opens the data `configuration` names (seeding it as a running server would), runs its
    /// services and builds the router.
    public init(_ configuration: ServerConfiguration) async throws {
        let settings = LiveSettings(configuration), usage = UsageTally()
        let logger = Logger(label: "fakenft.in-process") { _ in SwiftLogNoOpLogHandler() }
        let made = Handoff<(ServiceGroup, Store)>()
        task = Task {
            do {
                try await FakeNFTServer.run(configuration, settings: settings, signals: [], logger: logger) { store in
                    [store, UsageWriter(tally: usage, database: store.database, logger: logger)]
                } made: { group, store in
                    await made.give((group, store))
                }
            } catch {
                await made.fail(error)
                throw error
            }
        }
        (group, store) = try await made.take()
        responder = FakeNFTServer.router(
            store: store, configuration: configuration, settings: settings, metrics: ServerMetrics(), usage: usage
        ).buildResponder()
    }

    /// The router's answer to `method path` (the path with its query) with `headers` and `body`.
    public func respond(_ method: String, _ path: String, headers: [(String, String)], body: Data?) async throws
        -> Answer
    {
        let response = try await self.response(method, path, headers: headers, body: body)
        let collected = CollectedBody()
        try await response.body.write(collected.writer)
        return Answer(
            status: response.head.status.code,
            headers: response.head.headerFields.map { ($0.name.canonicalName, $0.value) }, body: collected.data)
    }

    /// The router's answer to `GET path` read as it comes (the live updates): `status` gets its
    /// status, `chunk` each piece of its body, until the body ends (the server closing) or the
    /// caller's task is cancelled.
    public func stream(
        _ path: String, headers: [(String, String)], status: (Int) throws -> Void,
        chunk: @escaping @Sendable (ByteBuffer) throws -> Void
    ) async throws {
        let response = try await self.response("GET", path, headers: headers, body: nil)
        try status(response.head.status.code)
        try await response.body.write(ForwardingWriter(chunk: chunk))
    }

    /// The router's response to a request, its body not yet written.
    private func response(_ method: String, _ path: String, headers: [(String, String)], body: Data?) async throws
        -> Response
    {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        if let body { fields[.contentLength] = String(body.count) }
        guard let method = HTTPRequest.Method(method) else { throw HTTPError(.badRequest) }
        let requestHead = HTTPRequest(
            method: method, scheme: "http", authority: "localhost", path: path, headerFields: fields)
        let request = Request(head: requestHead, body: RequestBody(buffer: ByteBuffer(bytes: body ?? Data())))
        let context = ServerContext(source: .init(channel: NIOAsyncTestingChannel(), logger: logger))
        do {
            return try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        }
    }

    /// How many follow its live updates now.
    public var eventSubscribers: Int { store.feed.subscriberCount }

    /// Its background jobs.
    var jobs: BackgroundJobs { store.deadlines.jobs }

    /// Stops its services (a graceful shutdown), then its store is closed and its jobs end.
    public func close() async {
        store.feed.finishAll()
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}

/// A response body handed on piece by piece.
private struct ForwardingWriter: ResponseBodyWriter {
    let chunk: @Sendable (ByteBuffer) throws -> Void
    mutating func write(_ buffer: ByteBuffer) async throws { try chunk(buffer) }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
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
