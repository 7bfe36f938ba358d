import FakeNFTServer
import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// Lists changed on top of what others changed: the server's rebase, and servers without versions.
@Suite struct LostUpdateTests {
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
