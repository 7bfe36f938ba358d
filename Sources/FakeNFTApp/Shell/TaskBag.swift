/// The tasks a screen started: cancelled together when the screen is closed, so a closed
/// screen's loads stop and write nothing more.
@MainActor
public final class TaskBag {
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextID = 0
    private var startedOnce = false

    public init() {}

    /// Starts `work` as a task of this bag; the task is returned for cancelling it alone.
    @discardableResult
    public func run(_ work: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        let id = nextID
        nextID += 1
        let task = Task { [weak self] in
            await work()
            self?.running[id] = nil
        }
        running[id] = task
        return task
    }

    /// Starts `work` the first time only (a screen's first load, when it first appears).
    public func once(_ work: @escaping @MainActor () async -> Void) {
        guard !startedOnce else { return }
        startedOnce = true
        run(work)
    }

    /// Cancels every task still running.
    public func cancelAll() {
        running.values.forEach { $0.cancel() }
        running = [:]
    }

    /// Tasks still running (for tests).
    public var count: Int { running.count }
}
