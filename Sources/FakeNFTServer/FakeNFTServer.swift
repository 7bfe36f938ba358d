import Foundation
import Hummingbird
import Logging
import NIOCore

/// A running server: where it listens and how to stop it.
public final class RunningServer: Sendable {
    public let port: Int
    public let baseURL: URL
    private let task: Task<Void, any Error>

    init(port: Int, host: String, task: Task<Void, any Error>) {
        self.port = port
        self.baseURL = URL(string: "http://\(host):\(port)")!
        self.task = task
    }

    /// Stops accepting requests and waits for the server to finish.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }
}

/// The offline FakeNFT server: Hummingbird over a SQLite store.
public enum FakeNFTServer {
    /// Opens the database, seeding it when it is new (or when `reset` is set).
    public static func openStore(_ configuration: ServerConfiguration) throws -> Store {
        try FileManager.default.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true)
        let store = try Store(path: configuration.dataDirectory.appendingPathComponent("fakenft.sqlite").path)
        if try configuration.reset || store.isEmpty() {
            switch configuration.seed {
            case .gen1: try store.replaceAll(with: .gen1())
            case .large(let users, let nfts): try store.replaceAll(with: .large(users: users, nfts: nfts))
            }
        }
        if !configuration.paymentOutcomes.isEmpty { try store.setPaymentOutcome(configuration.paymentOutcomes) }
        return store
    }

    /// The router with every endpoint and the middleware the configuration asks for.
    public static func router(store: Store, configuration: ServerConfiguration) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: JSONErrorMiddleware())
        if configuration.logRequests { router.add(middleware: LogRequestsMiddleware(.info)) }
        if let token = configuration.token { router.add(middleware: TokenMiddleware(token: token)) }
        if configuration.latencyMilliseconds > 0 { router.add(middleware: LatencyMiddleware(milliseconds: configuration.latencyMilliseconds)) }
        Routes(store: store).register(on: router)
        return router
    }

    /// Starts the server in the background and returns once it listens.
    public static func start(_ configuration: ServerConfiguration) async throws -> RunningServer {
        let store = try openStore(configuration)
        let started = StartSignal()
        let app = Application(router: router(store: store, configuration: configuration),
                              configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "fakenft"),
                              onServerRunning: { channel in await started.succeed(channel.localAddress?.port ?? configuration.port) },
                              logger: logger(configuration))
        let task = Task {
            do { try await app.run() } catch {
                await started.fail(error)
                throw error
            }
        }
        let port = try await started.wait()
        return RunningServer(port: port, host: configuration.host, task: task)
    }

    /// Runs the server in the foreground until SIGINT or SIGTERM (`fakenft serve`).
    public static func serve(_ configuration: ServerConfiguration, onListening: @escaping @Sendable (Int) -> Void) async throws {
        let store = try openStore(configuration)
        let app = Application(router: router(store: store, configuration: configuration),
                              configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "fakenft"),
                              onServerRunning: { channel in onListening(channel.localAddress?.port ?? configuration.port) },
                              logger: logger(configuration))
        try await app.runService()
    }

    private static func logger(_ configuration: ServerConfiguration) -> Logger {
        if configuration.logRequests {
            var logger = Logger(label: "fakenft.server") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = .info
            return logger
        }
        return Logger(label: "fakenft.server") { _ in SwiftLogNoOpLogHandler() }
    }
}

/// Hands the listening port (or the start failure) to whoever waits for it, once.
private actor StartSignal {
    private var result: Result<Int, any Error>?
    private var waiter: CheckedContinuation<Int, any Error>?

    func succeed(_ port: Int) { finish(.success(port)) }
    func fail(_ error: any Error) { finish(.failure(error)) }

    func wait() async throws -> Int {
        if let result { return try result.get() }
        return try await withCheckedThrowingContinuation { waiter = $0 }
    }

    private func finish(_ value: Result<Int, any Error>) {
        guard result == nil else { return }
        result = value
        waiter?.resume(with: value)
        waiter = nil
    }
}
