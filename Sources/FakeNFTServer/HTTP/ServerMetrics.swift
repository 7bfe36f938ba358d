import CoreMetrics
import FakeNFTModels
import Foundation
import Hummingbird
import Prometheus
import Synchronization

/// The server's metrics, kept through swift-metrics in a Prometheus registry of its own (one
/// per server, so servers in one process never mix their figures): requests by route, method
/// and status, their latency as a histogram, the requests in flight, how many were repeats, the
/// event subscribers, the changes of other servers taken in and, on PostgreSQL, the connection
/// pool's use.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// Where every figure of the server is made (the SSH front's too, ``SSHMetrics``).
    let factory: PrometheusMetricsFactory
    private let inFlight: CoreMetrics.Meter
    private let repeats: CoreMetrics.Counter

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .seconds(2.5),
        ]
        self.factory = factory
        inFlight = CoreMetrics.Meter(label: "fakenft_http_requests_in_flight", factory: factory)
        repeats = CoreMetrics.Counter(label: "fakenft_http_answers_repeated_total", factory: factory)
    }

    func started() { inFlight.increment(by: 1) }

    /// The `/events` subscribers now (read when the metrics are).
    func subscribers(_ count: Int) {
        CoreMetrics.Gauge(label: "fakenft_event_subscribers", factory: factory).record(count)
    }

    /// The database connections in use and the pool's size (PostgreSQL; read when the metrics are).
    func databaseConnections(inUse: Int, maximum: Int) {
        CoreMetrics.Gauge(label: "fakenft_db_connections_in_use", factory: factory).record(inUse)
        CoreMetrics.Gauge(label: "fakenft_db_connections_max", factory: factory).record(maximum)
    }

    /// The server's background jobs running now, by name (``BackgroundJobs``; read when the metrics are).
    func backgroundJobs(_ counts: [BackgroundJobs.Name: Int]) {
        for (name, count) in counts {
            CoreMetrics.Gauge(label: "fakenft_background_jobs", dimensions: [("job", name.rawValue)], factory: factory)
                .record(count)
        }
    }

    /// Changes the read model caught up with since start, by where their rows came from
    /// (``Store/caughtUp``; read when the metrics are).
    func caughtUp(fromNotifications: Int, fromDatabase: Int) {
        for (source, count) in [("notification", fromNotifications), ("database", fromDatabase)] {
            CoreMetrics.Gauge(label: "fakenft_changes_caught_up", dimensions: [("from", source)], factory: factory)
                .record(count)
        }
    }

    /// A batch of the apps' usage events taken (``UsageRoutes``): each counted by event and
    /// screen, a rating by its stars (the labels are closed lists).
    func usage(_ events: [UsageEvent]) {
        for event in events {
            CoreMetrics.Counter(
                label: "fakenft_app_events_total",
                dimensions: [("event", event.event.rawValue), ("screen", event.screen.rawValue)], factory: factory
            ).increment()
            if let stars = event.stars {
                CoreMetrics.Counter(
                    label: "fakenft_app_ratings_total", dimensions: [("stars", "\(stars)")], factory: factory
                ).increment()
            }
        }
    }

    /// A batch of usage events refused, by why: `invalid`, `too-large`, `too-many`.
    func usageRefused(_ reason: String) {
        CoreMetrics.Counter(
            label: "fakenft_app_events_refused_total", dimensions: [("reason", reason)], factory: factory
        ).increment()
    }

    /// One request answered: its route (the pattern, so the label set stays small), method, status and time.
    /// Clients choose methods: only these are labels, so the label set stays bounded.
    private static let labelledMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .delete, .patch, .options]

    func answered(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status, elapsed: Duration) {
        inFlight.decrement(by: 1)
        answers(route: route, method: method, status: status).record(elapsed)
    }

    /// A repeat (``RepeatedAnswers``), answered on the event loop without the router: counted
    /// into `answers` as any answer (never in flight), and apart.
    func repeated(_ answers: Answers, elapsed: Duration) {
        answers.record(elapsed)
        repeats.increment()
    }

    /// The count and the time of the answers of one route, method and status.
    struct Answers: Sendable {
        let count: CoreMetrics.Counter
        let time: CoreMetrics.Timer

        func record(_ elapsed: Duration) {
            count.increment()
            let (seconds, attoseconds) = elapsed.components
            time.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
    }

    /// The metrics of `route`, `method` and `status`, made the first time (a lookup is cheaper
    /// than the registry's per-request naming).
    func answers(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status) -> Answers {
        let label = Self.labelledMethods.contains(method) ? method.rawValue : "other"
        let key = Key(route: route, method: label, status: status.code)
        return handles.withLock { handles in
            if let found = handles[key] { return found }
            let made = Answers(
                count: CoreMetrics.Counter(
                    label: "fakenft_http_requests_total",
                    dimensions: [("route", route), ("method", key.method), ("status", String(key.status))],
                    factory: factory),
                time: CoreMetrics.Timer(
                    label: "fakenft_http_request_duration_seconds",
                    dimensions: [("route", route), ("method", key.method)],
                    factory: factory))
            handles[key] = made
            return made
        }
    }

    private struct Key: Hashable {
        var route: String
        var method: String
        var status: Int
    }
    private let handles = Mutex<[Key: Answers]>([:])

    /// The Prometheus text exposition of every metric.
    var text: String { registry.emitToString() }
}

/// Counts every request into ``ServerMetrics`` once its answer is made (errors included, with
/// the status they are answered with). The outermost middleware.
struct MetricsRecorder: RouterMiddleware {
    typealias Context = ServerContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        metrics.started()
        do {
            let response = try await next(request, context)
            metrics.answered(
                route: Self.route(context), method: request.method, status: response.status, elapsed: .now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            metrics.answered(route: Self.route(context), method: request.method, status: status, elapsed: .now - start)
            throw error
        }
    }

    /// The route's pattern, or "unmatched" (Hummingbird names no route "NotFound").
    static func route(_ context: Context) -> String {
        guard let path = context.endpointPath, path.hasPrefix("/") else { return "unmatched" }
        return path
    }
}
