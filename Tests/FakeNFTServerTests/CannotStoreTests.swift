import FakeNFTCore
import FakeNFTModels
import Foundation
import Testing
import FakeNFTTesting
@testable import FakeNFTServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A database that cannot store changes (a full disk, a read-only file or server) is told at
/// start, and a change it refuses later is answered 503 with its reason (a header the app turns
/// into words), never a bare 500; reads go on.
@Suite struct CannotStoreTests {
    /// Runs `chattr` (immutable files: writes fail for root too) on `paths`.
    private static func chattr(_ flag: String, _ paths: [String]) async throws {
        let result = try await spawned("/usr/bin/chattr", [flag] + paths)
        guard result.status == 0 else { throw SpawnError(description: "chattr \(flag): \(result.output)") }
    }

    /// A read-only database is refused at start with its reason (SQLite: a file that cannot be
    /// written; PostgreSQL: a database whose transactions are read-only).
    @Test func aDatabaseThatCannotBeWrittenIsToldAtStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("read-only-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: folder, postgresURL: TestStore.isPostgres ? try TestStore.newDatabase() : nil)
        try await FakeNFTServer.withStore(configuration) { _ in }  // made and seeded
        let database = folder.appendingPathComponent("fakenft.sqlite").path
        if let url = configuration.postgresURL {
            let name = TestStore.name(of: url)
            _ = try TestStore.rows(url, "ALTER DATABASE \(name) SET default_transaction_read_only = on")
        } else {
            try await Self.chattr(
                "+i",
                [database, database + "-wal", database + "-shm"].filter {
                    FileManager.default.fileExists(atPath: $0)
                })
        }
        defer {
            if configuration.postgresURL == nil {
                _ = try? spawnAndWait("/usr/bin/chattr", ["-i", database, database + "-wal", database + "-shm"])
            }
        }
        configuration.reset = false
        await #expect {
            try await FakeNFTServer.withStore(configuration) { _ in }
        } throws: { error in
            guard case .cannotWrite(let why) = error as? StoreError else { return false }
            return why.contains("read-only") || why.contains("cannot be written")
        }
    }

    /// SQLite: a write the disk refuses is 503 with the cause named; the app's client reads it as
    /// ``APIError/cannotStore``; reads go on; once the disk takes writes again, so does the server.
    @Test func aRefusedWriteIsA503WithItsReason() async throws {
        guard !TestStore.isPostgres else { return }  // PostgreSQL's refusal is the start test's
        try await TestServer.with { server async throws in
            let database = server.configuration.dataDirectory.appendingPathComponent("fakenft.sqlite").path
            try await Self.chattr("+i", [database + "-wal"])
            let (status, body, headers) = try await server.exchange(
                "POST", "/api/v1/auth/register",
                body: FormEncoding.encode([("name", "Ann"), ("email", "ann@example.com"), ("password", "good pass 1")]))
            let api = APIClient(APIConfiguration(baseURL: server.baseURL, retries: 0))
            await #expect(throws: APIError.cannotStore) {
                _ = try await api.signUp(name: "B", email: "b@example.com", password: "good pass 1")
            }
            let read = try await server.request("GET", "/api/v1/currencies")
            try await Self.chattr("-i", [database + "-wal"])
            #expect(status == 503, "\(String(decoding: body, as: UTF8.self))")
            #expect(headers["fakenft-problem"] == APIProblem.cannotStore && headers["retry-after"] != nil)
            #expect(TestServer.errorMessage(body)?.contains("cannot store changes") == true)
            #expect(read.status == 200, "reads go on")
            #expect(
                try await server.request(
                    "POST", "/api/v1/auth/register",
                    body: FormEncoding.encode([
                        ("name", "Ann"), ("email", "ann@example.com"), ("password", "good pass 1"),
                    ])
                ).status == 201)
        }
    }
}
