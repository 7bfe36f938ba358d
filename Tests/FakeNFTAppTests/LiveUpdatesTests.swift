import FakeNFTCore
import Foundation
import Hummingbird
import Testing
import FakeNFTTesting
@testable import FakeNFTApp

/// Two apps on one profile: what one changes, the other shows, through the server's events.
@MainActor @Suite struct LiveUpdatesTests {
    func subscribers(_ server: TestServer) async -> Int {
        guard let text = try? await server.request("GET", "/metrics").body else { return 0 }
        let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first {
            $0.hasPrefix("fakenft_event_subscribers ")
        }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map(Int.init) ?? 0
    }

    /// Two apps started on `server`, their profiles and carts loaded (the caller stops them).
    func twoApps(on server: any ServerUnderTest) async -> (AppContext, AppContext) {
        let one = makeContext(server), other = makeContext(server)
        await one.state.start()
        await other.state.start()
        #expect(
            await eventually {
                one.state.profile != nil && other.state.profile != nil && one.state.cart != nil
                    && other.state.cart != nil
            })
        return (one, other)
    }

    @Test func aLikeAndACartChangeInOneAppShowInTheOther() async throws {
        try await TestServer.with { server async throws in
            let (one, other) = await twoApps(on: server)
            defer {
                one.state.stop()
                other.state.stop()
            }
            #expect(await polled { await subscribers(server) == 2 }, "both apps follow the events")
            let nft = try await server.get("/api/v1/nft/1", as: NFT.self)
            let liked = other.state.isLiked(nft)
            one.state.toggleLike(nft)
            #expect(await eventually { other.state.isLiked(nft) != liked }, "the like shows in the other app")
            let inCart = other.state.isInCart(nft)
            one.state.toggleCart(nft)
            #expect(await eventually { other.state.isInCart(nft) != inCart }, "the cart change shows in the other app")
            let order = try await server.get("/api/v1/orders/1", as: Order.self)
            #expect(other.state.cart == order.nfts, "the other app's cart is the server's")
        }
    }

    /// The same through a server answering in this process (its router, no socket, run by the
    /// same lifecycle): live updates are served in process too.
    @Test func aLikeInOneAppShowsInTheOtherThroughAServerInProcess() async throws {
        try await InProcessTestServer.with { server async throws in
            let (one, other) = await twoApps(on: server)
            defer {
                one.state.stop()
                other.state.stop()
            }
            let nft = try await server.get("/api/v1/nft/1", as: NFT.self)
            #expect(await polled { server.server.eventSubscribers == 2 }, "both apps follow the events")
            let liked = other.state.isLiked(nft)
            one.state.toggleLike(nft)
            #expect(await eventually { other.state.isLiked(nft) != liked }, "the like shows in the other app")
            let profile = try await server.get("/api/v1/profile/1", as: Profile.self)
            #expect(other.state.likes == Set(profile.likes), "the other app's likes are the server's")
        }
    }

    /// A purchase by an account changes its row in /users: Statistics, open in another app,
    /// shows its new NFT count and rating in place, as the server has them.
    @Test func aPurchaseElsewhereShowsInStatistics() async throws {
        try await TestServer.with { server async throws in
            let buyer = try await server.client().signUp(
                name: "Aaron Aardvark", email: "aaron@example.com", password: "secret 12")
            let other = makeContext(server)
            await other.state.start()
            defer { other.state.stop() }
            let statistics = StatisticsViewModel(context: other)
            let following = Task { await statistics.followChanges() }  // as the Statistics screen's task bag runs it
            defer { following.cancel() }
            statistics.setSort(.name)
            await statistics.loadNextPage()
            #expect(statistics.users.first?.id == buyer.userId && statistics.users.first?.nfts.isEmpty == true)
            #expect(await polled { await subscribers(server) == 1 }, "the statistics follow the events")
            let token = ["X-Practicum-Mobile-Token": buyer.token ?? ""]
            #expect(try await server.request("PUT", "/api/v1/orders/1", body: "nfts=1,2", headers: token).status == 200)
            #expect(try await server.request("GET", "/api/v1/orders/1/payment/1", headers: token).status == 200)
            let stored = try await server.get("/api/v1/users/\(buyer.userId)", as: User.self)
            #expect(stored.nfts == ["1", "2"] && stored.rating != "0")
            #expect(
                await eventually {
                    statistics.users.first?.nfts == stored.nfts && statistics.users.first?.rating == stored.rating
                },
                "the row shows the server's figures: \(String(describing: statistics.users.first))")
        }
    }

    /// A server that cannot be reached is tried again after 0.5 s, then after twice as long each
    /// time up to 30 s, by the app's clock (the test's: it moves only when told).
    @Test func reconnectsBackOffByTheAppsClock() async throws {
        @MainActor final class Tries { var count = 0 }
        let clock = TestClock(), tries = Tries()
        let context = makeContext(nil, clock: clock)  // nobody listens there: each try fails at once
        let following = Task { await LiveUpdates.follow(context.services) { if !$0 { tries.count += 1 } } }
        defer { following.cancel() }
        var wake = Duration.zero
        for (index, delay) in [0.5, 1, 2, 4, 8, 16, 30, 30].map({ Duration.milliseconds(Int($0 * 1000)) }).enumerated()
        {
            wake += delay
            #expect(await polled { clock.wakeTimes == [wake] }, "waits \(delay) after try \(index + 1)")
            #expect(tries.count == index + 1)
            clock.advance(by: delay)
        }
    }

    @Test func aServerWithoutEventsIsLeftAlone() async throws {
        try await withRouter(Router(context: BasicRequestContext.self)) { url in
            let events = ServerEvents(APIConfiguration(baseURL: url))
            await #expect(throws: APIError.notFound) { try await events.listen { _ in } }
        }
    }
}
