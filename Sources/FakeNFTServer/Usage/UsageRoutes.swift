import FakeNFTModels
import Foundation
import Hummingbird
import NIOCore

/// `POST /api/v1/usage`, an extension of the FakeNFT API: the apps' usage events
/// (``UsageBatch``), counted into `/metrics` and, by day, into the database (``UsageTally``).
/// A batch is taken whole or refused whole, and counted either way: a body over ``maxBodySize``
/// (413), one that is not a batch of known events (400), more than ``batchesPerMinute`` batches
/// a minute from one client's network (429, with `Retry-After`).
struct UsageRoutes: Sendable {
    let store: Store
    let tally: UsageTally
    let metrics: ServerMetrics
    let limiter: LoginLimiter

    /// The largest batch body: a hundred events of the longest ids fit well within it.
    static let maxBodySize = 16 * 1024
    /// Batches a minute per client's network (the app sends at most one every ten seconds).
    static let batchesPerMinute = 60

    init(store: Store, tally: UsageTally, metrics: ServerMetrics) {
        self.store = store
        self.tally = tally
        self.metrics = metrics
        limiter = LoginLimiter(maxAttempts: Self.batchesPerMinute, window: .seconds(60))
    }

    var table: [Route] {
        [
            Route(
                method: .post, path: "usage", changesState: true,
                doc: APIDoc(
                    summary: "A batch of an app's usage events (at most 100): counted, never tied to an account.",
                    tag: "Usage", body: .json(.ref("UsageBatch")), answer: .noContent, errors: [400, 403, 429])
            ) { request, context in
                let batch: UsageBatch
                switch await read(request, context) {
                case .success(let read): batch = read
                case .failure(let refusal):
                    metrics.usageRefused(refusal.reason)
                    throw refusal.answer
                }
                let model = store.latest
                tally.add(batch.events) { item, screen in
                    switch screen {
                    case .collection: model[catalog: .collections].item(id: item) != nil
                    case .user: model[catalog: .users].item(id: item) != nil
                    default: model[catalog: .nfts].item(id: item) != nil
                    }
                }
                metrics.usage(batch.events)
                return Response(status: .noContent)
            }
        ]
    }

    /// Why a batch was refused: the counter's reason and the answer.
    struct Refusal: Error {
        var reason: String
        var answer: ServerError
    }

    /// The batch `request` carries, within the client's share.
    private func read(_ request: Request, _ context: ServerContext) async -> Result<UsageBatch, Refusal> {
        if case .failure(let limited) = limiter.attempt([context.clientNetworkKey]) {
            return .failure(
                Refusal(
                    reason: "too-many",
                    answer: ServerError(
                        .tooManyRequests, "too many usage batches: send again in \(limited.seconds) s",
                        headers: [.retryAfter: String(limited.seconds)])))
        }
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: Self.maxBodySize) } catch {  // read whole already
            return .failure(
                Refusal(
                    reason: "too-large",
                    answer: ServerError(.contentTooLarge, "a usage batch is at most \(Self.maxBodySize / 1024) KiB")))
        }
        func invalid(_ why: String) -> Refusal {
            Refusal(reason: "invalid", answer: ServerError(.badRequest, "not a usage batch: \(why)"))
        }
        guard let batch = try? JSONDecoder().decode(UsageBatch.self, from: Data(body.readableBytesView)) else {
            return .failure(invalid("{\"events\": [...]} with the events, screens and actions of docs/server.md"))
        }
        guard (1...UsageBatch.maxEvents).contains(batch.events.count) else {
            return .failure(invalid("1 to \(UsageBatch.maxEvents) events"))
        }
        for (index, event) in batch.events.enumerated() {
            if let problem = event.problem { return .failure(invalid("event \(index): \(problem)")) }
        }
        return .success(batch)
    }
}
