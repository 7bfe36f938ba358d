import FakeNFTCore
import Foundation
import NIOCore
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

/// `GET /api/v1/events`: each caller's changes as they commit, and never a writer slowed.
@Suite struct EventTests {
    /// A subscription over a raw connection: the text received so far.
    final class Subscription: @unchecked Sendable {
        let connection: RawConnection
        private(set) var text = ""

        init(_ server: TestServer, token: String? = nil) throws {
            connection = try RawConnection(port: server.port)
            connection.send(
                """
                GET /api/v1/events HTTP/1.1\r\nHost: \
                127.0.0.1\r\n\(token.map { "X-Practicum-Mobile-Token: \($0)\r\n" } ?? "")\r\n
                """
            )
        }

        /// Waits until the text holds every one of `parts`; false after 10 s.
        func waitFor(_ parts: String...) async -> Bool {
            let before = text
            let (more, _) = await connection.receive(timeout: 10) { received in
                parts.allSatisfy { (before + received).contains($0) }
            }
            text += more
            return parts.allSatisfy(text.contains)
        }
    }

    /// A change committed after a subscriber joined and before its snapshot was read reaches it
    /// once (in the snapshot; the stream's copy is dropped), and the next change by the stream.
    /// Read the other way round, a change in between reached it only with the next one.
    @Test func aChangeBetweenSubscribingAndTheSnapshotArrivesOnce() async throws {
        let store = try await Store.temporary()
        let before = try #require(store.latest.orders[Owner.shared]).version
        let start = try #require(
            await EventRoutes.start(owner: Owner.shared, client: .network("client:test"), feed: store.feed) {
                _ = try? await store.updateOrder(nfts: ["1", "2"])  // committed in between
                return store.latest
            })
        let orderVersions = start.first.compactMap { change -> Int? in
            if case .order(_, let version, _) = change { version } else { nil }
        }
        #expect(orderVersions == [before + 1], "the snapshot holds the change")
        _ = try await store.updateOrder(nfts: ["3"])
        store.feed.finishAll()
        var streamed: [Int] = []
        for await event in start.events where !start.holds(event) {
            if case .change(.order(_, let version, _)) = event { streamed.append(version) }
        }
        #expect(streamed == [before + 2], "the change in between once, the next one by the stream")
        _ = await store.close(within: .seconds(10))
    }

    @Test func aSubscriberGetsTheStateThenEachChangeInCommitOrder() async throws {
        try await TestServer.with { server async throws in
            let events = try Subscription(server)
            #expect(
                await events.waitFor(
                    "text/event-stream", "event: profile",
                    "event: order\ndata: {\"version\":1,\"order\":{\"id\":\"1\",\"nfts\":[\"93\",\"94\",\"95\"]}}"))
            #expect(try await server.request("PUT", "/api/v1/orders/1", body: "nfts=1,2").status == 200)
            #expect(await events.waitFor("{\"version\":2,\"order\":{\"id\":\"1\",\"nfts\":[\"1\",\"2\"]}}"))
            #expect(try await server.request("PUT", "/api/v1/profile/1", body: "likes=7").status == 200)
            #expect(await events.waitFor("event: profile\ndata: {\"version\":2,\"profile\":{"))
            #expect(
                !events.text.contains("\"version\":1,\"order\":{\"id\":\"1\",\"nfts\":[\"1\""),
                "an unchanged order is not sent again")
            let order = try #require(events.text.range(of: "\"nfts\":[\"1\",\"2\"]")),
                like = try #require(events.text.range(of: "\"likes\":[\"7\"]"))
            #expect(order.lowerBound < like.lowerBound, "in commit order")
        }
    }

    @Test func accountsSeeTheirOwnChangesAndEverybodysCounts() async throws {
        try await TestServer.with { server async throws in
            // bcrypt shares NIO's two pool threads with every test's sign-ups: slow, never wrong
            let client = server.client()
            let anna = try await client.signUp(name: "Anna", email: "anna@example.com", password: "secret 12")
            let boris = try await client.signUp(name: "Boris", email: "boris@example.com", password: "secret 12")
            let annas = try Subscription(server, token: anna.token),
                boriss = try Subscription(server, token: boris.token)
            #expect(await annas.waitFor("event: order"))
            #expect(await boriss.waitFor("event: order"))
            let put = try await server.request(
                "PUT", "/api/v1/orders/1", body: "nfts=10", headers: ["X-Practicum-Mobile-Token": anna.token ?? ""])
            #expect(put.status == 200)
            #expect(await annas.waitFor("\"nfts\":[\"10\"]"))
            let paid = try await server.request(
                "GET", "/api/v1/orders/1/payment/1", headers: ["X-Practicum-Mobile-Token": anna.token ?? ""])
            #expect(paid.status == 200)
            let count = "event: user\ndata: {\"id\":\"\(anna.userId)\",\"nfts\":1}"
            #expect(await annas.waitFor(count))
            #expect(await boriss.waitFor(count), "a user's NFT count is public")
            #expect(!boriss.text.contains("\"nfts\":[\"10\"]"), "Anna's cart and profile are hers only")
        }
    }

    @Test func aSlowSubscriberIsDroppedToAResyncAndNeverWaitedFor() async throws {
        let feed = ChangeFeed()
        let stream = try #require(feed.subscribe(owner: "1", client: .network("client:test")))
        let started = ContinuousClock.now
        for version in 1...(ChangeFeed.bufferSize + 50) {
            feed.publish([.order(owner: "1", version: version, json: ByteBuffer(string: "{}"))])
        }
        // finds a full buffer: still waits for nobody
        feed.publish([.order(owner: "1", version: 9_999, json: ByteBuffer(string: "{}"))])
        #expect(ContinuousClock.now - started < .seconds(1))
        var versions: [Int] = []
        var resyncs = 0
        var iterator = stream.makeAsyncIterator()
        for _ in 0..<ChangeFeed.bufferSize {
            if case .change(.order(_, let version, _)) = await iterator.next() { versions.append(version) }
        }
        #expect(versions == Array(1...ChangeFeed.bufferSize), "the oldest kept, in order")
        // room again: a resync first
        feed.publish([.order(owner: "1", version: 10_000, json: ByteBuffer(string: "{}"))])
        if case .resync = await iterator.next() { resyncs += 1 }
        if case .change(.order(_, let version, _)) = await iterator.next() { versions.append(version) }
        #expect(resyncs == 1 && versions.last == 10_000)
        feed.finishAll()
        #expect(await iterator.next() == nil)
        #expect(feed.subscriberCount == 0)
    }

    /// Every subscriber gets a heartbeat each interval, while the feed's beat runs (a stream that
    /// finds a dead connection only when it writes), and none once it is cancelled.
    @Test func subscribersGetAHeartbeatEachIntervalWhileTheBeatRuns() async throws {
        let feed = ChangeFeed(), clock = TestClock()
        var stream = try #require(feed.subscribe(owner: "1", client: .network("client:a"))).makeAsyncIterator()
        let beat = Task { await feed.beat(every: .seconds(15), clock: clock) }
        for _ in 0..<2 {
            await clock.sleepers()
            clock.advance(by: .seconds(15))
            guard case .heartbeat = await stream.next() else {
                Issue.record("no heartbeat")
                return
            }
        }
        await clock.sleepers()
        beat.cancel()
        await beat.value
        clock.advance(by: .seconds(15))
        feed.finishAll()
        #expect(await stream.next() == nil, "no heartbeat after the beat ended")
    }

    /// One client cannot take every place: past its own share it is refused, others still join.
    @Test func oneClientHasAShareOfTheSubscriptions() async throws {
        let feed = ChangeFeed()
        let mine = (0..<ChangeFeed.maxPerClient).compactMap { _ in
            feed.subscribe(owner: "1", client: .network("client:greedy"))
        }
        #expect(mine.count == ChangeFeed.maxPerClient)
        #expect(
            !feed.hasRoom(for: .network("client:greedy"), owner: "1")
                && feed.subscribe(owner: "1", client: .network("client:greedy")) == nil)
        #expect(
            feed.hasRoom(for: .network("client:other"), owner: "1")
                && feed.subscribe(owner: "1", client: .network("client:other")) != nil)
        feed.finishAll()
        for stream in mine { for await _ in stream {} }
        #expect(feed.hasRoom(for: .network("client:greedy"), owner: "1"), "places come back when streams end")
    }

    /// One account's token, from as many addresses as it likes, has a share of the places too
    /// (over HTTP: its SSH sessions were counted by the SSH front's door).
    @Test func oneAccountHasAShareOfTheSubscriptions() async throws {
        let feed = ChangeFeed()
        let mine = (0..<ChangeFeed.maxPerClient).compactMap {
            feed.subscribe(owner: "u-anna", client: .network("client:\($0)"))
        }
        #expect(mine.count == ChangeFeed.maxPerClient)
        #expect(feed.subscribe(owner: "u-anna", client: .network("client:another")) == nil)
        #expect(feed.subscribe(owner: "u-boris", client: .network("client:another")) != nil)
        #expect(
            feed.subscribe(owner: "1", client: .network("client:another")) != nil,
            "the shared profile is per client only")
        let session = feed.subscribe(owner: "u-anna", client: .sshSession(7))
        #expect(session != nil, "an SSH session's stream: the SSH front's door counted the session")
        feed.finishAll()
        for stream in mine { for await _ in stream {} }
    }

    @Test func otherOwnersChangesDoNotReachASubscriber() async throws {
        let feed = ChangeFeed()
        let stream = try #require(feed.subscribe(owner: "u-anna", client: .network("client:test")))
        feed.publish([
            .order(owner: "u-boris", version: 2, json: ByteBuffer(string: "{}")), .user(id: "u-boris", nfts: 3),
        ])
        feed.finishAll()
        var events: [ChangeFeed.Event] = []
        for await event in stream { events.append(event) }
        #expect(events.count == 1)
        if case .change(.user(let id, let nfts)) = events.first {
            #expect(id == "u-boris" && nfts == 3)
        } else {
            Issue.record("\(events)")
        }
    }

    @Test func headSubscribesNothing() async throws {
        try await TestServer.with { server async throws in
            for _ in 0..<5 { #expect(try await server.request("HEAD", "/api/v1/events").status == 200) }
            let events = try Subscription(server)
            #expect(await events.waitFor("event: order"))
            let metrics = String(decoding: try await server.request("GET", "/metrics").body, as: UTF8.self)
            #expect(
                metrics.contains("fakenft_event_subscribers 1"),
                "\(metrics.split(separator: "\n").filter { $0.contains("subscribers") })")
        }
    }

    @Test func aGracefulStopEndsTheStreamsProperly() async throws {
        let server = try await TestServer.start()
        let events = try Subscription(server)
        #expect(await events.waitFor("event: order"))
        await server.stop()
        // The stream was ended, not cut: the chunked body's last chunk came. (Whether the idle
        // connection is closed afterwards depends on the shutdown's timing in a full run.)
        let rest = await events.connection.receive(timeout: 30) { $0.hasSuffix("0\r\n\r\n") }.text
        #expect(
            (events.text + rest).hasSuffix("0\r\n\r\n"),
            "ended with the last chunk: \((events.text + rest).suffix(40).debugDescription)")
    }
}

extension ChangeFeed.Event: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { "\(lhs)" == "\(rhs)" }
}
