import Hummingbird
import NIOCore

/// What those who run the server ask it, outside the API and without a token:
/// `GET /health/live` (the process answers), `GET /health/ready` and `GET /health` (the database
/// answers too) and `GET /metrics` (Prometheus text, where ``ServerConfiguration/metrics`` says).
struct OperationsRoutes: Sendable {
    let store: Store
    let metrics: ServerMetrics
    static let healthPaths: Set<String> = ["/health", "/health/live", "/health/ready"]
    static let paths: Set<String> = healthPaths.union(["/metrics"])

    /// The health checks, and `/metrics` unless it is `off` or served on a listener of its own;
    /// what they say of themselves.
    func add(to router: Router<ServerContext>, exposure: ServerConfiguration.MetricsExposure) -> [DocumentedRoute] {
        let health = APISchema.object([("status", .string)], required: ["status"])
        var documented = [
            DocumentedRoute(
                "GET", "health/live",
                APIDoc(summary: "Whether the process answers.", tag: "Operations", answer: .json(status: 200, health)))
        ]
        router.get("health/live") { _, _ in Responses.json((try? JSONBody.encode(["status": "ok"])) ?? ByteBuffer()) }
        for path in ["health", "health/ready"] {
            router.get(RouterPath(path)) { _, _ in Self.status(ready: await store.databaseAnswers()) }
            documented.append(
                DocumentedRoute(
                    "GET", path,
                    APIDoc(
                        summary: "Whether the database answers too (503 when it does not).", tag: "Operations",
                        answer: .json(status: 200, health))))
        }
        if exposure == .loopbackOnAPIPort {
            documented.append(
                DocumentedRoute(
                    "GET", "metrics",
                    APIDoc(
                        summary: "The server's figures in Prometheus's text (to loopback clients only).",
                        tag: "Operations", answer: .text, errors: [404])))
            router.get("metrics") { _, context in
                guard IPAddressRange.isLoopback(context.clientAddress) else {
                    throw ServerError.notFound("/metrics (it is served to loopback clients only)")
                }
                return answer()
            }
        }
        return documented
    }

    /// A router with `/metrics` alone, for a listener of its own.
    func metricsRouter() -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.get("metrics") { _, _ in answer() }
        return router
    }

    private func answer() -> Response {
        metrics.subscribers(store.feed.subscriberCount)
        metrics.backgroundJobs(store.deadlines.jobs.counts)
        let caughtUp = store.caughtUp
        metrics.caughtUp(fromNotifications: caughtUp.fromNotifications, fromDatabase: caughtUp.fromDatabase)
        if let use = store.database.connectionUse {
            metrics.databaseConnections(inUse: use.inUse, maximum: use.maximum)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.text)))
    }

    private static func status(ready: Bool) -> Response {
        Responses.json(
            (try? JSONBody.encode([
                "status": ready ? "ok" : "unavailable", "database": ready ? "ok" : "not answering",
            ])) ?? ByteBuffer(),
            status: ready ? .ok : .serviceUnavailable)
    }
}
