import FakeNFTServer
import Foundation
import Hummingbird
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// Every failure becomes a typed error with a message fit for the user.
@Suite struct FailureMappingTests {
    /// A misbehaving server on a free port: each path answers in its own broken way.
    func brokenServer(_ body: (URL) async throws -> Void) async throws {
        let router = Router()
        let hits = Hits()
        router.get("api/v1/profile/1") { _, _ -> Response in
            Response(
                status: .internalServerError, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":"database on fire"}"#)))
        }
        router.get("api/v1/orders/1") { _, _ in "this is not json" }
        router.get("api/v1/currencies") { _, _ -> Response in
            // 503 and 429 with Retry-After values that once trapped (nan, -1e300), then an answer.
            switch await hits.next() {
            case 1: return Response(status: .serviceUnavailable, headers: [.retryAfter: "nan"])
            case 2: return Response(status: .tooManyRequests, headers: [.retryAfter: "-1e300"])
            default:
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: "[]")))
            }
        }
        router.get("api/v1/nft/2") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string:
                            #"""
                            {"id":"2","name":"N","images":[],"rating":"nan","description":"","price":1,"author":"a",
                             "createdAt":""}
                            """#
                    )))
        }
        try await withRouter(router, body)
    }

    @Test func serverErrorMalformedJSONAndRetry() async throws {
        try await brokenServer { url in
            // Answers come at once; the limit only ends a hang (a loaded machine once took over 2 s).
            let api = APIClient(APIConfiguration(baseURL: url, timeout: 30))
            await #expect(throws: APIError.server(status: 500, message: "database on fire")) { try await api.profile() }
            do {
                _ = try await api.order()
                Issue.record("expected a decoding error")
            } catch let error as APIError {
                guard case .undecodable = error else {
                    Issue.record("got \(error)")
                    return
                }
                #expect(error.userMessage.contains("does not understand"))
            }
            #expect(try await api.currencies().isEmpty, "503 and 429 retried, then answered")
            await #expect(throws: APIError.self, "a NaN rating is an error, not a trap") { try await api.nft(id: "2") }
            await #expect(throws: APIError.notFound) { try await api.nft(id: "1") }
        }
    }

    @Test func serverDown() async throws {
        let api = APIClient(APIConfiguration(baseURL: URL(string: "http://127.0.0.1:1")!, timeout: 2))
        do {
            _ = try await api.profile()
            Issue.record("expected offline")
        } catch let error as APIError {
            guard case .offline = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(error.userMessage.contains("Can't reach the server"))
        }
    }

    /// FoundationNetworking can trap when a request is cancelled while its connection fails; the
    /// client keeps cancellation away from URLSession. A crash here ends the whole test run.
    @Test func cancellingRequestsWhileTheyFailIsSafe() async {
        let api = APIClient(APIConfiguration(baseURL: URL(string: "http://127.0.0.1:1")!, timeout: 2))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                let task = Task { try await api.profile() }
                group.addTask {
                    task.cancel()
                    _ = await task.result
                }
            }
        }
    }

    /// A server that never answers: the request gives up when the client's clock reaches its
    /// time-out, not before (the test's clock: a loaded machine makes it slower, never wrong).
    @Test func aHangingServerTimesOutByTheClientsClock() async throws {
        let server = try HostileServer.start(.hanging)
        defer { server.stop() }
        let clock = TestClock()
        let api = APIClient(APIConfiguration(baseURL: server.baseURL, timeout: 10), clock: AppClock(clock))
        let request = Task { try await api.profile() }
        await clock.sleepers()  // the request is on its way, its time-out set
        clock.advance(by: .seconds(9))
        #expect(clock.sleeping == 1, "not given up before its time")
        clock.advance(by: .seconds(1))
        await #expect(throws: APIError.timeout) { try await request.value }
    }

    /// A 503 with Retry-After is asked again once the client's clock has waited what it said.
    @Test func aRetryWaitsWhatTheServerSaidByTheClientsClock() async throws {
        let router = Router()
        let hits = Hits()
        router.get("api/v1/currencies") { _, _ -> Response in
            guard await hits.next() > 1 else {
                return Response(status: .serviceUnavailable, headers: [.retryAfter: "5"])
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: "[]")))
        }
        try await withRouter(router) { url in
            let clock = TestClock()
            let api = APIClient(APIConfiguration(baseURL: url, timeout: 30), clock: AppClock(clock))
            let request = Task { try await api.currencies() }
            // the first answer read (its time-out, at 30 s, gone): the back-off waits
            #expect(await polled { clock.wakeTimes == [.seconds(5)] })
            #expect(await hits.count == 1)
            clock.advance(by: .seconds(4))
            #expect(await hits.count == 1, "not asked again before the time said")
            clock.advance(by: .seconds(1))
            let currencies = try await request.value
            #expect(currencies.isEmpty)
            #expect(await hits.count == 2)
        }
    }

    @Test func wrongToken() async throws {
        try await TestServer.with(token: "right") { server async throws in
            let api = APIClient(APIConfiguration(baseURL: server.baseURL, token: "wrong"))
            await #expect(throws: APIError.unauthorized) { try await api.profile() }
        }
    }
}

private actor Hits {
    private(set) var count = 0
    func next() -> Int {
        count += 1
        return count
    }
}
