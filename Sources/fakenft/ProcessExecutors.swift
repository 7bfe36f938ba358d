@_spi(ExperimentalCustomExecutors) import _Concurrency
import Foundation

/// What runs Swift's tasks in this process. The main actor stays on the platform's main executor.
/// Other tasks run on libdispatch's pool by default, whose monitor wakes the process every second
/// for the rest of its life once it has run one job: fifty visitors' apps left open over SSH
/// would each wake every second doing nothing. The app and the shop's commands run them on
/// ``TaskThreads`` instead, which sleep while there is nothing to do. `fakenft serve` keeps
/// libdispatch's pool: its database (GRDB) works on libdispatch's queues anyway, and a server
/// under load is what that pool is made for.
enum ProcessExecutors: ExecutorFactory {
    static let mainExecutor: any MainExecutor = PlatformExecutorFactory.mainExecutor
    static let defaultExecutor: any TaskExecutor = TaskThreads(
        most: max(4, ProcessInfo.processInfo.activeProcessorCount))

    /// Installs ``TaskThreads`` unless `arguments` (the command line after the program's name)
    /// start the server. Called first thing, before any task but the main one has run.
    static func install(for arguments: [String]) {
        guard arguments.first != "serve" else { return }
        _createExecutors(factory: Self.self)
    }
}
