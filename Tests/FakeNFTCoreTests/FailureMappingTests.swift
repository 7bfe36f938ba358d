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

    @Test func slowerThanTheTimeout() async throws {
        try await TestServer.with(latency: 1500) { server async throws in
            let api = APIClient(APIConfiguration(baseURL: server.baseURL, timeout: 0.3))
            await #expect(throws: APIError.timeout) { try await api.profile() }
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
    private var count = 0
    func next() -> Int {
        count += 1
        return count
    }
}
