import FakeNFTServer
import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// Two apps on one profile: with If-Match and a reload on 412, neither undoes the other.
@Suite struct LostUpdateTests {
    /// Presses again, as a user told "changed elsewhere at the same time, try again" does: on a
    /// loaded machine one client can lose the race more times in a row than a change retries
    /// (``OptimisticList/maxConflictRetries``), and is then rolled back, the change not made.
    static func pressed(_ press: () async throws -> Void) async throws {
        for attempt in 1...5 {
            do { return try await press() } catch APIError.versionConflict where attempt < 5 { continue }
        }
    }

    @Test func twoAppsTogglingDifferentLikesLoseNothing() async throws {
        try await TestServer.with { server async throws in
            let first = ProfileService(api: server.client()), second = ProfileService(api: server.client())
            try await first.load()
            try await second.load()
            let firstIDs = (1...95).filter { $0 % 2 == 1 }.map(String.init),
                secondIDs = (1...95).filter { $0 % 2 == 0 }.map(String.init)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (service, ids) in [(first, firstIDs), (second, secondIDs)] {
                    group.addTask { for id in ids { try await Self.pressed { try await service.toggleLike(id) } } }
                }
                try await group.waitForAll()
            }
            // Every id toggled once: the gen1 likes are now unliked, all the others liked.
            let expected = Set((1...95).map(String.init)).symmetricDifference(Profile.gen1Likes)
            #expect(Set(try await server.client().profile().likes) == expected)
        }
    }

    @Test func twoCartsLoseNothing() async throws {
        try await TestServer.with { server async throws in
            let firstAPI = server.client(), secondAPI = server.client()
            let first = OrderService(api: firstAPI, profile: ProfileService(api: firstAPI))
            let second = OrderService(api: secondAPI, profile: ProfileService(api: secondAPI))
            try await first.load()
            try await second.load()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for id in 1...30 { try await Self.pressed { try await first.toggle(String(id)) } } }
                group.addTask { for id in 31...60 { try await Self.pressed { try await second.toggle(String(id)) } } }
                try await group.waitForAll()
            }
            #expect(Set(try await server.client().order().nfts) == Set((1...60).map(String.init) + ["93", "94", "95"]))
        }
    }

    @Test func rebaseKeepsOwnChangesOnTopOfTheServers() {
        // Base had a, b; this client removed a and added c; meanwhile the server got d.
        #expect(IDList.rebase(["b", "c"], from: ["a", "b"], onto: ["a", "b", "d"]) == ["b", "d", "c"])
        // The other client removed b, which this client did not touch.
        #expect(IDList.rebase(["a", "b", "c"], from: ["a", "b"], onto: ["a"]) == ["a", "c"])
        // Both added the same id: once.
        #expect(IDList.rebase(["a", "c"], from: ["a"], onto: ["a", "c"]) == ["a", "c"])
    }

    /// A server without ETags (the original FakeNFT backends) gets unconditional PUTs as before.
    @Test func serversWithoutVersionsStillWork() async throws {
        try await TestServer.with { server async throws in
            let api = server.client()
            let updated = try await api.updateLikes(["1"], ifVersion: nil)
            #expect(updated.value.likes == ["1"] && updated.version != nil)
            await #expect(throws: APIError.versionConflict) { try await api.updateLikes(["2"], ifVersion: "\"0\"") }
        }
    }
}
