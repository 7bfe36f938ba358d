import FakeNFTCore
import Foundation

/// What tests ask of a FakeNFT server: a running one on a port (``TestServer``) or one answering
/// in this process (``InProcessTestServer``).
public protocol ServerUnderTest: Sendable {
    /// Where the server is, as the app's links and the API client see it.
    var baseURL: URL { get }
    /// An API client for this server whose time-outs and retries wait by `clock`. Its generous
    /// time limit is for a loaded machine: tests assert what the server answers, not how fast.
    func client(timeout: TimeInterval, clock: AppClock) -> APIClient
    /// The answer to one raw request: its status, body and headers (names in lower case).
    func answer(
        _ method: String, _ path: String, body: String?, contentType: String?, headers: [String: String]
    ) async throws -> (status: Int, body: Data, headers: [String: String])
}

extension ServerUnderTest {
    public func client() -> APIClient { client(timeout: 60) }
    public func client(timeout: TimeInterval) -> APIClient { client(timeout: timeout, clock: .continuous) }

    /// One raw request; returns the status and the body.
    public func request(
        _ method: String, _ path: String, body: String? = nil, contentType: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> (status: Int, body: Data) {
        let (status, body, _) = try await exchange(method, path, body: body, contentType: contentType, headers: headers)
        return (status, body)
    }

    /// One raw request with its headers; returns the status, the body and the answer's headers.
    public func exchange(
        _ method: String, _ path: String, body: String? = nil, contentType: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> (status: Int, body: Data, headers: [String: String]) {
        try await answer(method, path, body: body, contentType: contentType, headers: headers)
    }

    /// A request whose JSON answer is decoded as `T`.
    public func get<T: Decodable>(_ path: String, as type: T.Type = T.self) async throws -> T {
        let (status, data) = try await request("GET", path)
        guard status == 200 else {
            throw SpawnError(description: "GET \(path) -> \(status): \(String(decoding: data, as: UTF8.self))")
        }
        return try JSONDecoder().decode(T.self, from: data)
    }
}
