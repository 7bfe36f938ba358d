import FakeNFTCore
import FakeNFTServer
import Foundation
import NIOCore
import NIOHTTP1

/// A FakeNFT server answering in this process, through its router: no port, no connection
/// (``InProcessServer``), its own temporary data folder. For the view models' tests; the
/// end-to-end tests keep the real binary and the real server. Live updates are served in process too.
public final class InProcessTestServer: ServerUnderTest {
    public let server: InProcessServer
    public let configuration: ServerConfiguration
    /// Links point here; nothing listens (requests go to the router).
    public let baseURL = URL(string: "http://in-process.invalid")!

    /// Runs `body` with a server seeded with `seed` and closes it when `body` ends, however it ends.
    public static func with<T>(
        token: String? = nil, seed: ServerConfiguration.Seed = .gen1, payments: [String: Bool] = [:],
        imageLinks: ImageLinks = .local(publicURL: nil), isolation: isolated (any Actor)? = #isolation,
        _ body: (InProcessTestServer) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fakenft-in-process-\(UUID().uuidString)")
        let configuration = ServerConfiguration(
            port: 0, dataDirectory: directory, token: token, seed: seed, paymentOutcomes: payments,
            imageLinks: imageLinks, postgresURL: try TestStore.isPostgres ? TestStore.database(for: directory) : nil)
        let server = InProcessTestServer(server: try await InProcessServer(configuration), configuration: configuration)
        do {
            let result = try await body(server)
            await server.server.close()
            return result
        } catch {
            await server.server.close()
            throw error
        }
    }

    private init(server: InProcessServer, configuration: ServerConfiguration) {
        self.server = server
        self.configuration = configuration
    }

    public func client(timeout: TimeInterval, clock: AppClock) -> APIClient {
        APIClient(
            APIConfiguration(baseURL: baseURL, token: configuration.token, timeout: timeout),
            exchange: RouterExchange(server: server), clock: clock)
    }

    public func answer(
        _ method: String, _ path: String, body: String?, contentType: String?, headers: [String: String]
    ) async throws -> (status: Int, body: Data, headers: [String: String]) {
        var fields = headers.map { ($0.key, $0.value) }
        if let contentType { fields.append(("Content-Type", contentType)) }
        if let token = configuration.token, headers["X-Practicum-Mobile-Token"] == nil {
            fields.append(("X-Practicum-Mobile-Token", token))
        }
        let answer = try await server.respond(method, path, headers: fields, body: body.map { Data($0.utf8) })
        var answerHeaders: [String: String] = [:]
        for (name, value) in answer.headers { answerHeaders[name.lowercased()] = value }
        return (answer.status, answer.body, answerHeaders)
    }
}

/// The API client's requests handed to a server's router in this process.
struct RouterExchange: APIExchange {
    let server: InProcessServer

    func fetch(
        _ method: HTTPMethod, _ url: URL, headers: HTTPHeaders, body: Data?, limit: Int, timeout: Duration,
        clock: AppClock
    ) async throws(TransportError) -> HTTPAnswer {
        let answer: InProcessServer.Answer
        do {
            answer = try await server.respond(
                method.rawValue, Self.path(of: url), headers: headers.map { ($0.name, $0.value) }, body: body)
        } catch {
            throw Task.isCancelled ? .cancelled : .malformed(String(describing: error))
        }
        guard answer.body.count <= limit else { throw .tooLarge(limit: limit) }
        return HTTPAnswer(
            status: answer.status, headers: HTTPHeaders(answer.headers.map { ($0.name, $0.value) }), body: answer.body,
            url: url)
    }

    /// The live updates, read as the router writes them (a silence is not watched: in process
    /// nothing between the two can go quiet).
    func stream(
        _ url: URL, headers: HTTPHeaders, idle: Duration, clock: AppClock, status: (Int) throws -> Void,
        chunk: @escaping @Sendable (ByteBuffer) throws -> Void
    ) async throws {
        try await server.stream(
            Self.path(of: url), headers: headers.map { ($0.name, $0.value) }, status: status, chunk: chunk)
    }

    /// `url`'s path and query, as the router reads them.
    private static func path(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        return (components?.percentEncodedPath ?? "/") + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}
