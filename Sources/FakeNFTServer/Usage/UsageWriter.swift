import Logging
import ServiceLifecycle

/// Adds what ``UsageTally`` counted to the database, ``delay`` after the first event since the
/// last write (so one write carries many batches, and a server nobody uses never wakes), and
/// once more when the server stops. A write that fails gives its counts back for the next.
struct UsageWriter: Service {
    let tally: UsageTally
    let database: any UsageDatabase
    let logger: Logger
    var delay: Duration = .seconds(10)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in tally.counted {
                try? await Task.sleep(for: delay)  // cut short by a stop, which writes below
                if Task.isCancelled { break }
                await write()
            }
        }
        // The last write in a task of its own: a stop that outlasts its grace period cancels the
        // group, and a cancelled write would lose what this server counted.
        await Task { await write() }.value
    }

    /// Writes what is counted now.
    func write() async {
        let taken = tally.take()
        guard !taken.isEmpty else { return }
        do { try await database.addUsage(taken) } catch {
            tally.giveBack(taken)
            logger.warning("usage counts not written (kept for the next write): \(error)")
        }
    }
}
