import Hummingbird
import NIOCore

/// What those who run the server ask it, outside the API and without a token: `GET /health`
/// (ready: the database answers) and `GET /metrics` (Prometheus text).
struct OperationsRoutes: Sendable {
    let store: Store
    let metrics: ServerMetrics
    static let paths: Set<String> = ["/health", "/metrics"]

    func add(to router: Router<ServerContext>) {
        router.get("health") { _, _ in
            let ready = await store.databaseAnswers()
            return Responses.json(
                (try? JSONBody.encode([
                    "status": ready ? "ok" : "unavailable", "database": ready ? "ok" : "not answering",
                ])) ?? ByteBuffer(),
                status: ready ? .ok : .serviceUnavailable)
        }
        router.get("metrics") { _, _ in
            metrics.subscribers(store.feed.subscriberCount)
            if let use = store.database.connectionUse {
                metrics.databaseConnections(inUse: use.inUse, maximum: use.maximum)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.text)))
        }
    }
}
