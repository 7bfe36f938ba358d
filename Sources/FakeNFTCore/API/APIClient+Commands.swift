import FakeNFTModels
import Foundation
import NIOHTTP1
import ShopCommands

/// The shop's commands (`fakenft cart add 7`) over this client's connection: each request as the
/// command makes it, sent once (never retried: a command says what failed), its answer whole.
extension APIClient: ShopAPI {
    public func send(_ request: ShopRequest) async throws(CommandFailure) -> ShopAnswer {
        let base = configuration.baseURL.absoluteString
        guard let url = URL(string: (base.hasSuffix("/") ? base : base + "/") + "api/v1/" + request.path) else {
            throw .failed("'\(request.path)' makes no address on \(base)")
        }
        var sent = self.request(HTTPMethod(rawValue: request.method), url)
        for (name, value) in request.headers { sent.headers.add(name: name, value: value) }
        let answer: HTTPAnswer
        do {
            answer = try await transport.fetch(
                sent.method, url, headers: sent.headers, body: request.body, limit: Self.maxResponseBytes,
                timeout: .seconds(configuration.timeout), clock: clock)
        } catch {
            throw .failed(Self.map(error, host: url.host ?? base).userMessage)
        }
        note(answer.headers, answering: sent)
        return ShopAnswer(status: answer.status, body: answer.body, entityTag: answer.headers.first(name: "ETag"))
    }
}
