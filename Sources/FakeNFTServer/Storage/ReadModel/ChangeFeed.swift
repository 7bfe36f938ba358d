import NIOCore
import Synchronization

/// Changes as they commit, to whoever listens (`GET /api/v1/events`). Each subscriber has a
/// bounded buffer: one that falls behind gets a `resync` instead of what it missed, and a
/// writer never waits for a subscriber.
final class ChangeFeed: Sendable {
    /// One committed change: an owner's profile or order (whole, with its version), or a user's
    /// NFT count (public).
    enum Change: Sendable {
        case profile(owner: String, version: Int, json: ByteBuffer)
        case order(owner: String, version: Int, json: ByteBuffer)
        case user(id: String, nfts: Int)
    }

    /// What a subscriber reads.
    enum Event: Sendable {
        case change(Change)
        /// Some changes were dropped: read everything again.
        case resync
        /// Nothing happened for a while (a write that finds a dead connection).
        case heartbeat
    }

    /// Events a subscriber may have waiting.
    static let bufferSize = 256
    /// Subscribers at most; past it, subscribing fails.
    static let maxSubscribers = 1_000
    /// Subscribers one client may have at most, so that no client takes every place.
    static let maxPerClient = 32

    /// Who subscribes, as the limits count them.
    enum Client: Hashable, Sendable {
        /// A client over HTTP, by its network (``ServerContext/clientNetworkKey``).
        case network(String)
        /// An SSH session's app, by its session: the SSH front's door counted the session (in
        /// all, per key, per address and per network), so its account's streams are not counted.
        case sshSession(Int)
    }

    private struct Subscriber {
        var owner: String
        var client: Client
        var continuation: AsyncStream<Event>.Continuation
        var lagging = false
    }

    private let subscribers = Mutex<[Int: Subscriber]>([:])
    private let nextID = Atomic<Int>(0)

    /// Gives every subscriber a ``Event/heartbeat`` every `interval` by `clock` until the task is
    /// cancelled (the store's background work, ``Store/run()``).
    func beat(every interval: Duration = .seconds(15), clock: some Clock<Duration> = ContinuousClock()) async {
        while (try? await clock.sleep(for: interval)) != nil { sendHeartbeat() }
    }

    /// A heartbeat to every subscriber with room for it.
    private func sendHeartbeat() {
        subscribers.withLock { subscribers in
            for subscriber in subscribers.values { _ = subscriber.continuation.yield(.heartbeat) }
        }
    }

    /// The changes that concern `owner` (theirs, and public ones), from now on, for `client`;
    /// nil when there is no room (``hasRoom(for:owner:)``). The stream ends when `finish` is called or
    /// the server stops.
    func subscribe(owner: String, client: Client) -> AsyncStream<Event>? {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: .bufferingOldest(Self.bufferSize))
        let added = subscribers.withLock { subscribers in
            guard Self.room(in: subscribers, for: client, owner: owner) else { return false }
            subscribers[id] = Subscriber(owner: owner, client: client, continuation: continuation)
            return true
        }
        guard added else { return nil }
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        return stream
    }

    var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// Whether `client` may subscribe to `owner`'s changes: fewer than ``maxSubscribers`` in all,
    /// fewer than ``maxPerClient`` of the client's own and, for an account (any owner but the
    /// shared profile) over HTTP, of the account's own, whatever addresses its token comes from.
    func hasRoom(for client: Client, owner: String) -> Bool {
        subscribers.withLock { Self.room(in: $0, for: client, owner: owner) }
    }

    private static func room(in subscribers: [Int: Subscriber], for client: Client, owner: String) -> Bool {
        let countsTheAccount = if case .network = client { owner != Owner.shared } else { false }
        return subscribers.count < maxSubscribers
            && subscribers.values.lazy.filter { $0.client == client }.count < maxPerClient
            && (!countsTheAccount || subscribers.values.lazy.filter { $0.owner == owner }.count < maxPerClient)
    }

    /// Hands `changes` to every subscriber they concern, without waiting.
    func publish(_ changes: [Change]) {
        guard !changes.isEmpty else { return }
        subscribers.withLock { subscribers in
            for (id, var subscriber) in subscribers {
                defer { subscribers[id] = subscriber }
                if subscriber.lagging {
                    guard case .enqueued = subscriber.continuation.yield(.resync) else { continue }
                    subscriber.lagging = false
                }
                for change in changes where Self.concerns(change, subscriber.owner) {
                    if case .dropped = subscriber.continuation.yield(.change(change)) {
                        subscriber.lagging = true
                        break
                    }
                }
            }
        }
    }

    /// Tells every subscriber to read everything again (the database was replaced).
    func resyncAll() {
        subscribers.withLock { subscribers in
            for subscriber in subscribers.values { _ = subscriber.continuation.yield(.resync) }
        }
    }

    /// Ends every subscription (the server stops).
    func finishAll() {
        let continuations = subscribers.withLock { subscribers in subscribers.values.map(\.continuation) }
        for continuation in continuations { continuation.finish() }
    }

    private static func concerns(_ change: Change, _ owner: String) -> Bool {
        switch change {
        case .profile(let changed, _, _), .order(let changed, _, _): changed == owner
        case .user: true
        }
    }
}
