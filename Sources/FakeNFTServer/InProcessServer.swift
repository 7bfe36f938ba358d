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
/// the listeners. Live updates (a stream that never ends) are not served this way.
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
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        let collected = CollectedBody()
        let head = response.head
        try await response.body.write(collected.writer)
        return Answer(
            status: head.status.code, headers: head.headerFields.map { ($0.name.canonicalName, $0.value) },
            body: collected.data)
    }

    /// Its background jobs.
    var jobs: BackgroundJobs { store.deadlines.jobs }

    /// Stops its services (a graceful shutdown), then its store is closed and its jobs end.
    public func close() async {
        store.feed.finishAll()
        await group.triggerGracefulShutdown()
        _ = await task.result
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
