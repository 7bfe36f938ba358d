import FakeNFTServer
import Foundation
import Hummingbird
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// Answers too big to read fail fast with a clear error instead of filling memory.
@Suite struct ResponseLimitTests {
    @Test func endlessHugeAndAnnouncedBodiesAreRefused() async throws {
        let router = Router()
        let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024)
        router.get("api/v1/nft") { _, _ in  // chunked, never ends
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "["))
                    while true { try await writer.write(chunk) }
                })
        }
        router.get("api/v1/collections") { _, _ in  // 5 MB with a Content-Length
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: "[" + String(repeating: "{\"id\":\"1\"},", count: 500_000) + "{\"id\":\"1\"}]")))
        }
        router.get("api/v1/currencies") { _, _ in  // just under the limit: read
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: "[" + String(repeating: " ", count: APIClient.maxResponseBytes - 2) + "]")))
        }
        try await withRouter(router) { url in
            // The limit, not the clock, ends each read: the timeout only bounds a hang (the endless
            // body took over 20 s to reach 4 MB beside the whole suite on two busy cores).
            let api = APIClient(APIConfiguration(baseURL: url, timeout: 120))
            await #expect(throws: APIError.tooLarge(limitBytes: APIClient.maxResponseBytes)) {
                try await api.nfts(page: 0, size: 10)
            }
            await #expect(throws: APIError.tooLarge(limitBytes: APIClient.maxResponseBytes)) {
                try await api.collections(page: 0, size: 100)
            }
            let currencies = try await api.currencies()
            #expect(currencies.isEmpty)
            #expect(APIError.tooLarge(limitBytes: APIClient.maxResponseBytes).userMessage.contains("4 MB"))
        }
    }
}

/// The transport reads with backpressure: a body faster than the app can take costs at most the
/// limit, and a caller that gives up stops the request.
@Suite struct TransportBoundTests {
    /// Against a server writing an endless body as fast as loopback allows, three requests in a
    /// row fail with the limit and the process grows by far less than the bodies sent (URLSession
    /// kept reading after the cancel: 8 GB in 15 s).
    @Test func aFastEndlessBodyCostsAtMostItsLimit() async throws {
        let server = try HostileServer.start(.endlessBodies)
        defer { server.stop() }
        // the limit is the point, not the time: beside the whole suite on two busy cores 20 s were short
        let api = APIClient(APIConfiguration(baseURL: server.baseURL, timeout: 60, retries: 0))
        let before = try Self.residentBytes()
        for _ in 0..<3 {
            await #expect(throws: APIError.tooLarge(limitBytes: APIClient.maxResponseBytes)) {
                try await api.nfts(page: 0, size: 10)
            }
        }
        try await Task.sleep(for: .seconds(1))  // anything still reading would grow by gigabytes here
        // The whole process is measured, and the suites running beside this one grow it too (by
        // 325 MB once, on two busy cores): a gigabyte still tells a bounded read from an endless one.
        let grown = try Self.residentBytes() - before
        #expect(grown < 1024 * 1024 * 1024, "grew by \(grown / (1024 * 1024)) MB")
    }

    /// Cancelling the task that waits for a hanging request ends it as cancelled, not as a timeout.
    @Test func cancellingTheCallerCancelsTheRequest() async throws {
        let server = try HostileServer.start(.hanging)
        defer { server.stop() }
        let api = APIClient(APIConfiguration(baseURL: server.baseURL, timeout: 60, retries: 0))
        let request = Task { try await api.nfts(page: 0, size: 10) }
        #expect(await polled { server.requestsRead == 1 }, "the request is in flight")
        request.cancel()
        await #expect(throws: APIError.cancelled) { try await request.value }
    }

    /// An event stream that goes silent without closing is given up once silent for its idle
    /// time by the client's clock, not sooner.
    @Test func aStreamSilentForItsIdleTimeIsGivenUp() async throws {
        let server = try HostileServer.start(.stallingBodies)
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("api/v1/events")
        let clock = TestClock()
        let stream = Task {
            try await HTTPTransport(redirects: 0).stream(
                url, headers: [:], idle: .seconds(45), clock: AppClock(clock), status: { #expect($0 == 200) },
                chunk: { _ in })
        }
        #expect(await polled { clock.wakeTimes == [.seconds(45)] }, "the answer began: its silence is watched")
        clock.advance(by: .seconds(44))
        #expect(clock.wakeTimes == [.seconds(45)], "not given up before its time")
        clock.advance(by: .seconds(1))
        await #expect(throws: TransportError.timedOut) { try await stream.value }
        #expect(server.requestsRead == 1)
    }

    /// The process's resident memory, from `/proc/self/statm`.
    private static func residentBytes() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// A list of more ids than the app fetches: the first ``CatalogService/maxListedNFTs`` only.
@Suite struct ListedNFTLimitTests {
    @Test func aLongListFetchesItsFirstThousand() async throws {
        try await TestServer.with(seed: .large(users: 100, nfts: 1_200)) { server async throws in
            let ids = (1...1_200).map(String.init)
            let nfts = try await CatalogService(api: server.client()).nfts(ids: ids)
            #expect(nfts.map(\.id) == Array(ids.prefix(CatalogService.maxListedNFTs)))
        }
    }
}
