import FakeNFTModels
import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `GET /api/v1/events`, an extension of the FakeNFT API: server-sent events of the changes
/// that concern the caller (by its token, as the profile and the order are chosen), in commit
/// order. First the caller's profile and order as they are; then `profile`, `order` and `user`
/// events as they change; `resync` when some were dropped for a slow reader; a comment line
/// every 15 s so that a dead connection is noticed. It ends when the server stops.
struct EventRoutes: Sendable {
    let store: Store
    /// Picks the caller's owner (the shared profile, or an account's) from the request.
    let owner: @Sendable (Request, ServerContext) async throws -> String
    /// JSON as the request should see it (image links pointed at this server).
    let rewrite: @Sendable (ByteBuffer, Request) -> ByteBuffer

    var table: [Route] {
        [
            Route(
                method: .get, path: "events", changesState: false,
                doc: APIDoc(
                    summary: "Server-sent events of the changes that concern the caller: profile, order, user, resync.",
                    tag: "Live updates", answer: .events, errors: [401, 503])
            ) { request, context in
                let owner = try await owner(request, context)
                let client = context.eventStreamClient  // a network's rotated addresses are one client
                guard store.feed.hasRoom(for: client, owner: owner) else {
                    throw ServerError(.serviceUnavailable, "too many event subscribers", headers: [.retryAfter: "5"])
                }
                let feed = store.feed
                return Response(
                    status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                    body: ResponseBody { writer in
                        // Subscribed only once the body is written (a HEAD never is, and leaves nothing behind).
                        guard
                            let start = await Self.start(
                                owner: owner, client: client, feed: feed, snapshot: { store.latest })
                        else { return try await writer.finish(nil) }
                        for change in start.first {
                            try await writer.write(Self.encode(.change(change)) { rewrite($0, request) })
                        }
                        try await withGracefulShutdownHandler {
                            for await event in start.events where !start.holds(event) {
                                try await writer.write(Self.encode(event) { rewrite($0, request) })
                            }
                        } onGracefulShutdown: {
                            feed.finishAll()
                        }
                        try await writer.finish(nil)
                    })
            }
        ]
    }

    /// A subscriber's start: the stream, then the owner's profile and order as they are. In that
    /// order, so that a change committed meanwhile is in the stream or in the snapshot (the
    /// other way round, it was in neither until the next); what the snapshot holds already is
    /// dropped from the stream (``holds(_:)``).
    struct Start {
        let events: AsyncStream<ChangeFeed.Event>
        let first: [ChangeFeed.Change]
        private let versions: (profile: Int?, order: Int?)

        init(events: AsyncStream<ChangeFeed.Event>, snapshot: ReadModel, owner: String) {
            self.events = events
            let profile = snapshot.profiles[owner], order = snapshot.orders[owner]
            first =
                (profile.map { [ChangeFeed.Change.profile(owner: owner, version: $0.version, json: $0.json)] } ?? [])
                + (order.map { [ChangeFeed.Change.order(owner: owner, version: $0.version, json: $0.json)] } ?? [])
            versions = (profile?.version, order?.version)
        }

        /// True when `event` is a change the snapshot already shows (its version or an older one).
        func holds(_ event: ChangeFeed.Event) -> Bool {
            switch event {
            case .change(.profile(_, let version, _)): version <= (versions.profile ?? .min)
            case .change(.order(_, let version, _)): version <= (versions.order ?? .min)
            default: false
            }
        }
    }

    /// Subscribes `client` to `owner`'s changes, then reads `snapshot`; nil when there is no room.
    static func start(
        owner: String, client: ChangeFeed.Client, feed: ChangeFeed, snapshot: () async -> ReadModel
    ) async -> Start? {
        guard let events = feed.subscribe(owner: owner, client: client) else { return nil }
        return Start(events: events, snapshot: await snapshot(), owner: owner)
    }

    /// One event in the text/event-stream format; `rewrite` is applied to profiles.
    static func encode(_ event: ChangeFeed.Event, rewrite: (ByteBuffer) -> ByteBuffer = { $0 }) -> ByteBuffer {
        var buffer = ByteBuffer()
        func emit(_ name: String, _ data: ByteBuffer) {
            buffer.writeString("event: \(name)\ndata: ")
            var data = data
            buffer.writeBuffer(&data)
            buffer.writeString("\n\n")
        }
        switch event {
        case .resync: emit("resync", ByteBuffer(string: "{}"))
        case .heartbeat: buffer.writeString(": heartbeat\n\n")
        case .change(.profile(_, let version, let json)): emit("profile", wrap(version, "profile", rewrite(json)))
        case .change(.order(_, let version, let json)): emit("order", wrap(version, "order", json))
        case .change(.user(let id, let nfts)):
            emit("user", (try? JSONBody.encode(UserCount(id: id, nfts: nfts))) ?? ByteBuffer(string: "{}"))
        }
        return buffer
    }

    private struct UserCount: Encodable {
        var id: String
        var nfts: Int
    }

    /// `{"version": 3, "profile": {...}}` (the JSON is one line: the encoder writes no newlines).
    private static func wrap(_ version: Int, _ key: String, _ json: ByteBuffer) -> ByteBuffer {
        var buffer = ByteBuffer(string: "{\"version\":\(version),\"\(key)\":")
        var json = json
        buffer.writeBuffer(&json)
        buffer.writeString("}")
        return buffer
    }
}
