import FakeNFTServer
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// The client sends back the newest generation the server answered (docs/server.md), and reads
/// that header as it reads everything a server sends: hostile until parsed.
@Suite struct GenerationTests {
    /// A server that answers `/currencies` with the generations it is given, in turn, and notes
    /// the generation each request sent.
    func scriptedServer(answers: [String], _ body: (URL, Sent) async throws -> Void) async throws {
        let router = Router()
        let sent = Sent()
        let name = HTTPField.Name("FakeNFT-Generation")!
        router.get("api/v1/currencies") { request, _ -> Response in
            let index = sent.values.withLock { sent in
                sent.append(request.headers[name])
                return sent.count - 1
            }
            var headers: HTTPFields = [.contentType: "application/json"]
            if index < answers.count { headers[name] = answers[index] }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "[]")))
        }
        try await withRouter(router) { url in try await body(url, sent) }
    }

    @Test func theNewestGenerationIsSentBackAndJunkIsIgnored() async throws {
        let answers = ["7", "8", "junk", "-3", "1e9", String(repeating: "9", count: 19), "7\r\nX-Evil: 1", "9", "2"]
        try await scriptedServer(answers: answers) { url, sent in
            let api = APIClient(APIConfiguration(baseURL: url))
            for _ in 0..<answers.count + 1 { _ = try await api.currencies() }
            // Junk is ignored; 2 answered to a request that sent 9 means the server's data counts
            // from the start again: taken.
            #expect(sent.values.withLock { $0 } == [nil, "7", "8", "8", "8", "8", "8", "8", "9", "2"])
        }
    }

    /// What each request sent.
    final class Sent: Sendable {
        let values = Mutex<[String?]>([])
    }
}
