import Foundation
@testable import FakeNFTServer

extension Store {
    /// A SQLite store of the shipped data in a folder of its own, for tests that drive the store
    /// without a server.
    static func temporary(sessionIdleLimit: TimeInterval = 30 * 86_400) async throws -> Store {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try await Store(
            path: directory.appendingPathComponent("fakenft.sqlite").path, seed: { try .gen1() },
            deadlines: TestJobs.deadlines, sessionIdleLimit: sessionIdleLimit)
    }
}
