import LineLog
import Foundation
import Hummingbird
import ServiceLifecycle
import UnixSignals
import HummingbirdCore
import Logging
import NIOCore

/// A running server: where it listens and how to stop it.
public final class RunningServer: Sendable {
    public let port: Int
    public let baseURL: URL
    /// The SSH front's port, when it has one.
    public let sshPort: Int?
    /// What may change while it runs (``LiveSettings/apply(_:)``).
    public let settings: LiveSettings
    private let task: Task<Void, any Error>
    private let group: ServiceGroup
    private let store: Store

    /// Its log's writer, closed once the rest has ended.
    let lines: LineQueue

    init(
        group: ServiceGroup, store: Store, settings: LiveSettings, port: Int, sshPort: Int?, host: String,
        lines: LineQueue, task: Task<Void, any Error>
    ) {
        self.group = group
        self.lines = lines
        self.store = store
        self.settings = settings
        self.port = port
        self.sshPort = sshPort
        self.baseURL = URL(string: "http://\(host):\(port)")!
        self.task = task
    }

    /// The server's background jobs (its database's pool, its deadlines).
    var jobs: BackgroundJobs { store.deadlines.jobs }

    /// The longest a stop waits for requests in flight before it cancels them.
    static let gracePeriod: Duration = .seconds(3)

    /// Stops accepting connections, lets the requests in flight finish and closes idle
    /// connections (a graceful shutdown of the server's one group), then waits for the server's
    /// task to end: the services, then the database closed, then the background jobs. After
    /// ``gracePeriod`` it is cancelled, and waited for at most twice
    /// ``FakeNFTServer/shutdownBound`` more (the database's close and the jobs' end are each
    /// bounded so). (Cancelling while connections are served trips swift-nio's check that every
    /// connection's writer was finished, apple/swift-nio#3481.)
    public func stop() async {
        store.feed.finishAll()  // event streams never end by themselves
        await group.triggerGracefulShutdown()
        let task = self.task
        for (bound, cancelling) in [(Self.gracePeriod, true), (FakeNFTServer.shutdownBound * 2, false)] {
            await withTaskGroup(of: Void.self) { race in
                race.addTask { _ = await task.result }
                race.addTask { try? await Task.sleep(for: bound) }
                await race.next()
                if cancelling { task.cancel() }  // nothing, when it has ended
                race.cancelAll()
            }
        }
    }
}

/// The offline FakeNFT server: Hummingbird over a SQLite or PostgreSQL store.
public enum FakeNFTServer {
    /// Opens the database (SQLite in the data folder, or PostgreSQL), seeding it when it is new
    /// (or when `reset` is set).
    static func openStore(_ configuration: ServerConfiguration, jobs: BackgroundJobs, logger: Logger? = nil)
        async throws -> Store
    {
        let deadlines = Deadlines(jobs: jobs)
        let seed: @Sendable () throws -> Dataset = {
            switch configuration.seed {
            case .gen1: try .gen1()
            case .large(let users, let nfts): try .large(users: users, nfts: nfts)
            }
        }
        // The data folder holds the SQLite database and the log.
        try FileManager.default.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true)
        if let url = configuration.postgresURL {
            return try await Store(
                database: PostgresDatabase(
                    url: url, reset: configuration.reset, seed: seed,
                    paymentOutcomes: configuration.paymentOutcomes, deadlines: deadlines,
                    logger: logger
                        ?? Self.logger(configuration, level: LiveSettings(configuration).logLevel, lines: .process)),
                deadlines: deadlines, sessionIdleLimit: configuration.sessionIdleLimit)
        }
        return try await Store(
            path: configuration.dataDirectory.appendingPathComponent("fakenft.sqlite").path,
            reset: configuration.reset, seed: seed, paymentOutcomes: configuration.paymentOutcomes,
            deadlines: deadlines, sessionIdleLimit: configuration.sessionIdleLimit)
    }

    /// The router with every endpoint (and HEAD wherever a GET changes nothing) and the
    /// middleware the configuration asks for; with `repeated`, the answers of repeatable routes
    /// marked for it (``RepeatedAnswers/marker``).
    static func router(
        store: Store, configuration: ServerConfiguration, settings: LiveSettings, metrics: ServerMetrics,
        usage: UsageTally, repeated: RepeatedAnswers? = nil, sshPasses: SSHVisitorPasses? = nil
    ) -> Router<ServerContext> {
        let routes = Routes(
            store: store, links: configuration.imageLinks, serverHost: "\(configuration.host):\(configuration.port)",
            limits: AccountLimits { settings.signUpsPerHour },
            listBases: configuration.listWrites == .merge ? ListBases() : nil,
            tokenRequired: configuration.token != nil,
            sshPasses: sshPasses, usage: UsageRoutes(store: store, tally: usage, metrics: metrics)
        ).table
        let router = Router(context: ServerContext.self)
        router.add(middleware: MetricsRecorder(metrics: metrics))
        if !configuration.trustedProxies.isEmpty || sshPasses != nil {
            router.add(
                middleware: ForwardedClientMiddleware(
                    trustedProxies: configuration.trustedProxies, sshPasses: sshPasses))
        }
        router.add(middleware: JSONErrorMiddleware(routes: routes))
        router.add(middleware: BodyDeadlineMiddleware(deadlines: store.deadlines))
        router.add(middleware: RequestLog())  // written at the info level, which `--quiet` leaves out
        router.add(middleware: ConsistencyMiddleware(store: store))
        if let token = configuration.token { router.add(middleware: TokenMiddleware(token: token, store: store)) }
        router.add(middleware: LatencyMiddleware(settings: settings))
        let crossSite = CrossSiteGuard(configuration: configuration)
        for route in routes {
            let path = RouterPath("api/v1/" + route.path)
            if route.changesState {
                router.on(path, method: route.method) { request, context in
                    if settings.readOnly {
                        throw ServerError(.forbidden, "refused: this server is read-only (fakenft serve --read-only)")
                    }
                    try crossSite.check(request)
                    return try await route.handler(request, context)
                }
            } else if let source = route.repeats, let repeated {
                router.on(path, method: route.method) { request, context in
                    // A delayed answer is never repeated: a repeat would skip the delay.
                    guard settings.latencyMilliseconds == 0 else { return try await route.handler(request, context) }
                    let revision = repeated.revision(source)  // before the answer reads the model
                    var response = try await route.handler(request, context)
                    response.headers[RepeatedAnswers.marker] = RepeatedAnswers.mark(
                        source, revision: revision, route: MetricsRecorder.route(context))
                    return response
                }
            } else {
                router.on(path, method: route.method, use: route.handler)
            }
            if route.method == .get && !route.changesState {
                router.on(path, method: .head) { request, context in
                    let response = try await route.handler(request, context)
                    return Response(status: response.status, headers: response.headers, body: ResponseBody())
                }
            }
        }
        var documented = routes.flatMap { route in
            let path = "api/v1/" + route.path
            return [DocumentedRoute(route.method.rawValue, path, route.doc)]
                + (route.method == .get && !route.changesState ? [DocumentedRoute("HEAD", path, route.doc)] : [])
        }
        documented += ImageRoutes(images: ImageSet()).add(to: router)
        documented += OperationsRoutes(store: store, metrics: metrics).add(to: router, exposure: configuration.metrics)
        documented.append(
            DocumentedRoute(
                "GET", "openapi.json",
                APIDoc(
                    summary: "This document: every endpoint the server answers, as OpenAPI 3.1.", tag: "Operations",
                    answer: .json(status: 200, .object([("openapi", .string), ("paths", .object([]))])))))
        let document = OpenAPIDocument.Served(documented)
        router.get("openapi.json") { _, _ in Responses.json(document.bytes) }
        return router
    }

    /// Starts the server in the background and returns once it listens. Its one task runs
    /// everything: its background jobs, the database opened and closed, its service group.
    public static func start(_ configuration: ServerConfiguration) async throws -> RunningServer {
        let made = Handoff<(ServiceGroup, Store)>(), listening = Handoff<any Channel>()
        let (sshPorts, sshStarted) = AsyncStream.makeStream(of: Int.self)
        let settings = LiveSettings(configuration), lines = LineQueue()
        let logger = logger(configuration, level: settings.logLevel, lines: lines)
        // The server's own task, which the caller owns through the `RunningServer` it is given
        // (`stop()` ends it): a server started here runs on after `start` returns. Its log's
        // writer is the task's too, closed once everything else has ended.
        let task = Task {
            defer { sshStarted.finish() }
            do {
                try await run(configuration, settings: settings, signals: [], logger: logger) { store in
                    try services(
                        configuration, settings: settings, store: store, logger: logger,
                        onSSHListening: { port, _ in sshStarted.yield(port) }
                    ) { listener in await listening.give(listener) }
                } made: { group, store in
                    await made.give((group, store))
                }
            } catch {
                await made.fail(error)
                await listening.fail(error)
                await lines.close()
                throw error
            }
            await lines.close()
        }
        let (group, store) = try await made.take()
        let listener = try await listening.take()
        let sshPort = configuration.ssh == nil ? nil : await sshPorts.first { _ in true }
        return RunningServer(
            group: group, store: store, settings: settings, port: listener.localAddress?.port ?? configuration.port,
            sshPort: sshPort,
            host: configuration.host, lines: lines, task: task)
    }

    /// Runs the server in the foreground until SIGINT or SIGTERM (`fakenft serve`).
    /// Requests in flight finish first, then the database is closed.
    /// `onSSHListening` is told the SSH front's port and host key fingerprint, when it has one.
    /// On SIGHUP, `reload` is asked for the configuration again: what may change is applied
    /// (``LiveSettings``), with every connection and session kept; nil keeps what runs.
    public static func serve(
        _ configuration: ServerConfiguration, reload: @escaping @Sendable () async -> ServerConfiguration?,
        onListening: @escaping @Sendable (Int) -> Void,
        onSSHListening: @escaping @Sendable (_ port: Int, _ fingerprint: String) -> Void = { _, _ in }
    ) async throws {
        let settings = LiveSettings(configuration), lines = LineQueue()
        let logger = logger(configuration, level: settings.logLevel, lines: lines)
        do {
            try await run(configuration, settings: settings, signals: [.sigterm, .sigint], logger: logger) { store in
                try services(
                    configuration, settings: settings, store: store, logger: logger, onSSHListening: onSSHListening
                ) { listener in
                    onListening(listener.localAddress?.port ?? configuration.port)
                } + [ReloadOnHangUp(settings: settings, reload: reload)]
            }
        } catch {
            await lines.close()
            throw error
        }
        await lines.close()
    }

    /// The server's one lifecycle: its background jobs run beside everything (the database's
    /// pool, the deadlines), the database is opened, the `services` on it run as one group (told
    /// to `made` before it runs) until its graceful shutdown (`signals`, or a caller's), then the
    /// database is closed and the jobs end, each waited for at most ``shutdownBound``.
    static func run(
        _ configuration: ServerConfiguration, settings: LiveSettings, signals: [UnixSignal], logger: Logger,
        services: (Store) throws -> [any Service],
        made: (ServiceGroup, Store) async -> Void = { _, _ in }
    ) async throws {
        let ended: (Bool) -> Void = { ended in
            if !ended { logger.warning("background jobs did not end within \(shutdownBound); exiting anyway") }
        }
        try await BackgroundJobs.running(within: shutdownBound, ended: ended) { jobs in
            let store = try await openStore(configuration, jobs: jobs, logger: logger)
            do {
                var configured = ServiceGroupConfiguration(
                    services: try services(store), gracefulShutdownSignals: signals, logger: logger)
                configured.maximumGracefulShutdownDuration = shutdownBound
                let group = ServiceGroup(configuration: configured)
                await made(group, store)
                try await group.run()
            } catch {
                await closeWithin(shutdownBound, store, logger: logger)
                throw error
            }
            await closeWithin(shutdownBound, store, logger: logger)
        }
    }

    /// Runs `body` with the store `configuration` names, opened with background jobs of its own
    /// and closed after (a command's store, a test's).
    package static func withStore<T>(
        _ configuration: ServerConfiguration, logger: Logger? = nil, _ body: (Store) async throws -> T
    ) async throws -> T {
        try await BackgroundJobs.running(within: shutdownBound) { jobs in
            let store = try await openStore(configuration, jobs: jobs, logger: logger)
            let result: Result<T, any Error>
            do { result = .success(try await body(store)) } catch { result = .failure(error) }
            _ = await store.close(within: shutdownBound)
            return try result.get()
        }
    }

    /// How long a stop may wait for requests and event streams to end, and then for the database's
    /// connections to close: past each, the process goes on to exit (a signal always stops it).
    static let shutdownBound: Duration = .seconds(10)

    /// Closes `store`, or says that it stopped waiting after `bound`.
    private static func closeWithin(_ bound: Duration, _ store: Store, logger: Logger) async {
        guard await !store.close(within: bound) else { return }
        logger.warning("the database's connections did not close within \(bound); exiting anyway")
    }

    /// The store's background work first (so that it is shut down last), the usage counts' writer,
    /// then the API's application, the metrics listener's when it has one of its own, and the SSH front when
    /// it is served.
    private static func services(
        _ configuration: ServerConfiguration, settings: LiveSettings, store: Store, logger: Logger,
        onSSHListening: @escaping @Sendable (Int, String) -> Void = { _, _ in },
        onListening: @escaping @Sendable (any Channel) async -> Void
    ) throws -> [any Service] {
        let metrics = ServerMetrics()
        let repeated = RepeatedAnswers(metrics: metrics, requestLog: logger, generation: { store.generation }) {
            source in
            switch source {
            case .model: store.publication
            case .catalog(let table): store.revision(of: table)
            }
        }
        let apiAddress = APIAddress()
        let sshPasses = configuration.ssh == nil ? nil : SSHVisitorPasses()
        let usage = UsageTally()
        let router = router(
            store: store, configuration: configuration, settings: settings, metrics: metrics, usage: usage,
            repeated: repeated, sshPasses: sshPasses)
        let api = application(
            configuration, router: router, repeated: repeated, at: (configuration.host, configuration.port),
            logger: logger
        ) { listener in
            apiAddress.listening(host: configuration.host, port: listener.localAddress?.port ?? configuration.port)
            await onListening(listener)
        }
        // The usage counts' writer after the store, so that it is shut down (writing what it holds) first.
        var services: [any Service] = [store, UsageWriter(tally: usage, database: store.database, logger: logger), api]
        if case .listener(let host, let port) = configuration.metrics {
            let router = OperationsRoutes(store: store, metrics: metrics).metricsRouter()
            services.append(
                application(configuration, router: router, repeated: nil, at: (host, port), logger: logger) { _ in })
        }
        if let ssh = configuration.ssh, let sshPasses {
            let hostKey = try SSHHostKey.load(
                ssh.hostKeyPath ?? configuration.dataDirectory.appendingPathComponent("ssh_host_ed25519_key").path,
                create: ssh.hostKeyPath == nil)
            let shop = SSHShop(
                configuration: ssh, settings: settings, store: store, shop: SSHHostKey.fingerprint(hostKey.publicKey),
                dataDirectory: configuration.dataDirectory, api: apiAddress,
                passes: sshPasses, router: RouterCall(router.buildResponder()), metrics: metrics, logger: logger)
            services.append(SSHFront(shop: shop, hostKey: hostKey, onListening: onSSHListening))
        }
        return services
    }

    private static func application(
        _ configuration: ServerConfiguration, router: Router<ServerContext>, repeated: RepeatedAnswers?,
        at address: (host: String, port: Int), logger: Logger,
        onListening: @escaping @Sendable (any Channel) async -> Void
    ) -> some Service {
        let http1 = HTTP1Channel.Configuration(idleTimeout: .seconds(Int64(configuration.idleTimeout)))
        return Application(
            router: router,
            server: .init { responder in
                StrictHTTP1Channel(responder: responder, configuration: http1, repeated: repeated)
            },
            configuration: .init(
                address: .hostname(address.host, port: address.port), serverName: "fakenft",
                availableConnectionsDelegate: MaximumAvailableConnections(ProcessLimits.maxConnections())),
            onServerRunning: { channel in await onListening(channel) },
            logger: logger)
    }

    /// The server's logger, writing at `level` (shared by every logger of one server) through the
    /// server's own `lines`.
    private static func logger(_ configuration: ServerConfiguration, level: LineLogHandler.Level, lines: LineQueue)
        -> Logger
    {
        let writer =
            switch configuration.log {
            case .standardError: lines.standardError
            case .dataDirectoryFile:
                lines.appending(to: configuration.dataDirectory.appendingPathComponent("server.log").path)
            }
        return Logger(label: "fakenft.server") {
            LineLogHandler(label: $0, writer: writer, level: level, format: configuration.logFormat)
        }
    }
}

/// Hands the listening channel (or the start failure) to whoever waits for it, once.
/// A value one task hands another once, or the error that stopped it first.
actor Handoff<Value: Sendable> {
    private var result: Result<Value, any Error>?
    private var waiter: CheckedContinuation<Value, any Error>?

    func give(_ value: Value) { finish(.success(value)) }
    func fail(_ error: any Error) { finish(.failure(error)) }

    func take() async throws -> Value {
        if let result { return try result.get() }
        return try await withCheckedThrowingContinuation { waiter = $0 }
    }

    private func finish(_ value: Result<Value, any Error>) {
        guard result == nil else { return }
        result = value
        waiter?.resume(with: value)
        waiter = nil
    }
}
