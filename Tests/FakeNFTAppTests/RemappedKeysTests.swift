import Foundation
import Testing
import TerminalUI
import FakeNFTTesting
@testable import FakeNFTApp

/// The keys `[keys]` gives are the app's task's (``KeyRemap/with(_:isolation:_:)``), not the
/// process's: two apps on one server, at once in one process, one with Sort on `o`, each keep
/// their own keys in dispatch and in the footer, key after key.
@MainActor @Suite struct RemappedKeysTests {
    @Test func twoAppsAtOnceEachKeepTheirOwnKeys() async throws {
        try await InProcessTestServer.with { server async throws in
            let remapped = Task {
                try await KeyRemap.with(["catalog.sort": [.char("o")]]) {
                    try await Self.sortTwenty(server, key: "o", notKey: "s")
                }
            }
            let plain = Task { try await Self.sortTwenty(server, key: "s", notKey: "o") }
            try await remapped.value
            try await plain.value
        }
    }

    /// Opens and closes the catalog's sort menu twenty times with `key`, yielding to the other app
    /// between presses; `notKey` opens nothing, and the footer names `key`.
    static func sortTwenty(_ server: any ServerUnderTest, key: Character, notKey: Character) async throws {
        let (_, shell) = try await startedApp(server)
        let size = Size(width: 80, height: 24)
        for _ in 0..<20 {
            #expect(frame(shell, size).hasSuffix("\(key) sort  / search  ? help  q quit"), "\(frame(shell, size))")
            _ = shell.handle(.key(.char(notKey)))
            #expect(!frame(shell, size).contains("─ Sort ─"), "\(notKey) is not Sort here")
            await Task.yield()
            _ = shell.handle(.key(.char(key)))
            #expect(frame(shell, size).contains("─ Sort ─"), "\(key) is Sort here")
            await Task.yield()
            _ = shell.handle(.key(.escape))
        }
    }
}
