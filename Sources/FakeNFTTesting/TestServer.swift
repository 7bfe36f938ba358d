import FakeNFTCore
import FakeNFTServer
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real FakeNFT server on a free loopback port with its own temporary data folder.
public final class TestServer: ServerUnderTest {
    public let server: RunningServer
    public let configuration: ServerConfiguration

    /// On PostgreSQL (`postgresURL`, or ``TestStore/isPostgres``: a database of its own per data folder).
    public static func start(
        token: String? = nil, latency: Int = 0, seed: ServerConfiguration.Seed = .gen1,
        dataDirectory: URL? = nil, payments: [String: Bool] = [:],
        idleTimeout: Int = 30, imageLinks: ImageLinks = .local(publicURL: nil), postgresURL: String? = nil
    ) async throws -> TestServer {
        let directory =
            dataDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("fakenft-test-\(UUID().uuidString)")
        let database = try postgresURL ?? (TestStore.isPostgres ? TestStore.database(for: directory) : nil)
        let configuration = ServerConfiguration(
            port: 0, dataDirectory: directory, token: token, latencyMilliseconds: latency,
            seed: seed, paymentOutcomes: payments, idleTimeout: idleTimeout, imageLinks: imageLinks,
            postgresURL: database)
        return TestServer(server: try await FakeNFTServer.start(configuration), configuration: configuration)
    }

    /// Runs `body` with a server started like
    /// ``start(token:latency:seed:dataDirectory:payments:idleTimeout:imageLinks:postgresURL:)``
    /// and stops it, waiting for it, when `body` ends, however it ends.
    public static func with<T>(
        token: String? = nil, latency: Int = 0, seed: ServerConfiguration.Seed = .gen1,
        dataDirectory: URL? = nil, payments: [String: Bool] = [:], idleTimeout: Int = 30,
        imageLinks: ImageLinks = .local(publicURL: nil), postgresURL: String? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let server = try await start(
            token: token, latency: latency, seed: seed, dataDirectory: dataDirectory,
            payments: payments, idleTimeout: idleTimeout, imageLinks: imageLinks, postgresURL: postgresURL)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A server started from `configuration` by the test itself (settings ``start`` does not take).
    public init(server: RunningServer, configuration: ServerConfiguration) {
        self.server = server
        self.configuration = configuration
    }

    public var baseURL: URL { server.baseURL }
    public var port: Int { server.port }

    public func client(timeout: TimeInterval, clock: AppClock) -> APIClient {
        APIClient(APIConfiguration(baseURL: baseURL, token: configuration.token, timeout: timeout), clock: clock)
    }

    public func stop() async { await server.stop() }

    /// One raw HTTP request over a connection of its own.
    public func answer(
        _ method: String, _ path: String, body: String?, contentType: String?, headers: [String: String]
    ) async throws -> (status: Int, body: Data, headers: [String: String]) {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
        request.httpMethod = method
        if let body { request.httpBody = Data(body.utf8) }
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let token = configuration.token, headers["X-Practicum-Mobile-Token"] == nil {
            request.setValue(token, forHTTPHeaderField: "X-Practicum-Mobile-Token")
        }
        for (key, value) in headers { request.setValue(value, forHTTPHeaderField: key) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var answerHeaders: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            answerHeaders[String(describing: key).lowercased()] = String(describing: value)
        }
        return (http.statusCode, data, answerHeaders)
    }

    /// The `error` message of a JSON error body.
    public static func errorMessage(_ data: Data) -> String? {
        (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["error"] as? String
    }
}
