import FakeNFTCore
import FakeNFTTesting
import Foundation
import Testing
@testable import FakeNFTServer

/// A server is one lifecycle: its background jobs (the database's pool on PostgreSQL, the
/// deadlines' loop and the work under them) run beside its one service group, from before its
/// database opens until after it closes; a stop ends them all, none left running.
@Suite struct LifecycleTests {
    static func configuration(_ name: String) throws -> ServerConfiguration {
        ServerConfiguration(
            port: 0, dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID())"),
            postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
    }

    @Test func aStopEndsTheServicesTheDatabaseAndEveryJob() async throws {
        let server = try await FakeNFTServer.start(try Self.configuration("lifecycle"))
        let api = APIClient(APIConfiguration(baseURL: server.baseURL))
        let profile = try await api.versionedProfile()
        _ = try await api.updateLikes(profile.value.likes + ["1"], ifVersion: profile.version)  // a batch, a body
        let jobs = server.jobs
        #expect(!jobs.hasEnded)
        if TestStore.isPostgres { #expect(jobs.counts[.postgresPool] == 1, "the pool's loop runs") }
        await server.stop()
        #expect(jobs.hasEnded, "the jobs' group has returned")
        #expect(jobs.counts.values.allSatisfy { $0 == 0 }, "no job left: \(jobs.counts)")
    }

    /// A server's log has a writer of its own, which ends with the server: its lines are written
    /// by the time the stop returns, and its thread is gone.
    @Test func theLogsWriterEndsWithTheServerItsLinesWritten() async throws {
        var configuration = try Self.configuration("log")
        configuration.log = .dataDirectoryFile
        configuration.logRequests = true
        let server = try await FakeNFTServer.start(configuration)
        _ = try await APIClient(APIConfiguration(baseURL: server.baseURL)).versionedProfile()
        let lines = server.lines
        #expect(!lines.hasEnded)
        await server.stop()
        #expect(lines.hasEnded, "its thread has ended")
        let log = try String(
            contentsOf: configuration.dataDirectory.appendingPathComponent("server.log"), encoding: .utf8)
        #expect(log.contains("/api/v1/profile/1"), "the request's line is written: \(log)")
    }

    /// An in-process server runs the same lifecycle without its listeners.
    @Test func anInProcessServerEndsAsOne() async throws {
        let server = try await InProcessServer(try Self.configuration("in-process"))
        let answer = try await server.respond("GET", "/api/v1/profile/1", headers: [], body: nil)
        #expect(answer.status == 200)
        let jobs = server.jobs
        #expect(!jobs.hasEnded)
        await server.close()
        #expect(jobs.hasEnded && jobs.counts.values.allSatisfy { $0 == 0 })
    }
}
