import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import ServiceLifecycle
import ShopCommands

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
    private let router: RouterCall

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
        router = RouterCall(
            FakeNFTServer.router(
                store: store, configuration: configuration, settings: settings, metrics: ServerMetrics(), usage: usage
            ).buildResponder())
    }

    /// The router's answer to `method path` (the path with its query) with `headers` and `body`.
    public func respond(_ method: String, _ path: String, headers: [(String, String)], body: Data?) async throws
        -> Answer
    {
        let response = try await router.response(method, path, headers: headers, body: body)
        return Answer(
            status: response.head.status.code,
            headers: response.head.headerFields.map { ($0.name.canonicalName, $0.value) },
            body: try await RouterCall.body(of: response))
    }

    /// The router's answer to `GET path` read as it comes (the live updates): `status` gets its
    /// status, `chunk` each piece of its body, until the body ends (the server closing) or the
    /// caller's task is cancelled.
    public func stream(
        _ path: String, headers: [(String, String)], status: (Int) throws -> Void,
        chunk: @escaping @Sendable (ByteBuffer) throws -> Void
    ) async throws {
        let response = try await router.response("GET", path, headers: headers, body: nil)
        try status(response.head.status.code)
        try await response.body.write(ForwardingWriter(chunk: chunk))
    }

    /// Its API for the shop's commands (`fakenft nft 42` on the embedded server's data).
    public var shopAPI: some ShopAPI { RoutedShopAPI(router: router, owner: nil) }

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
