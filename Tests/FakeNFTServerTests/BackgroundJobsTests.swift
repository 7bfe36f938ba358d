import Synchronization
import Testing

@testable import FakeNFTServer

/// A server's background jobs: run beside the server's work, counted by name while they run,
/// cancelled from outside, awaited until they have ended; finished with the server.
struct BackgroundJobsTests {
    @Test func aJobIsCountedWhileItRunsAndEndsWhenCancelled() async throws {
        try await BackgroundJobs.running(within: .seconds(10)) { jobs in
            let (started, start) = AsyncStream.makeStream(of: Void.self)
            let (sawCancel, saw) = AsyncStream.makeStream(of: Bool.self)
            let job = jobs.start(.postgresPool) {
                start.yield()
                try? await Task.sleep(for: .seconds(3_600))  // as a pool's loop: until cancelled
                saw.yield(Task.isCancelled)
            }
            for await _ in started { break }
            #expect(jobs.counts[.postgresPool] == 1 && jobs.counts[.deadlines] == 0)
            job.cancel()
            await job.ended()
            #expect(await sawCancel.first { _ in true } == true, "the work's task was cancelled")
            #expect(jobs.counts[.postgresPool] == 0)
        }
    }

    @Test func aJobThatEndsIsNoLongerCountedAndEndedReturns() async throws {
        try await BackgroundJobs.running(within: .seconds(10)) { jobs in
            let job = jobs.start(.deadlineWork) {}
            await job.ended()
            #expect(jobs.counts[.deadlineWork] == 0)
            job.cancel()  // after its end: nothing
            await job.ended()
        }
    }

    /// The end of a server's lifecycle: every job still running is cancelled and the jobs' group
    /// returns once they have ended; one started after that never runs.
    @Test func finishingCancelsWhatRunsAndTheGroupReturns() async throws {
        let jobs = BackgroundJobs()
        let running = Task { await jobs.run() }
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let loop = jobs.start(.postgresPool) {
            start.yield()
            try? await Task.sleep(for: .seconds(3_600))
        }
        for await _ in started { break }
        jobs.finish()
        await loop.ended()
        await running.value
        #expect(jobs.hasEnded && jobs.counts.values.allSatisfy { $0 == 0 })
        let late = jobs.start(.deadlineWork) { Issue.record("a job started after the end ran") }
        await late.ended()
        #expect(jobs.count == 0)
    }

    /// A job deaf to its cancellation (a pool's loop after an outage) holds the end no longer
    /// than the bound: the lifecycle goes on and says so.
    @Test func aJobThatWillNotEndIsWaitedForOnlyUpToTheBound() async throws {
        let deaf = Deaf()
        var endedInTime: Bool?
        try await BackgroundJobs.running(within: .milliseconds(200), ended: { endedInTime = $0 }) { jobs in
            jobs.start(.postgresPool) { await deaf.wait() }
        }
        #expect(endedInTime == false)
        deaf.release()
    }
}

/// Work that no cancellation ends: it waits until released.
private final class Deaf: Sendable {
    private struct State {
        var released = false
        var waiting: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if !state.released { state.waiting = continuation }
                return state.released
            }
            if now { continuation.resume() }
        }
    }

    func release() {
        state.withLock { state in
            state.released = true
            return state.waiting.take()
        }?.resume()
    }
}
