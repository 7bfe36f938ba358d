import Testing

@testable import FakeNFTServer

/// The process's background jobs: counted by name while they run, cancelled from outside, awaited
/// until they have ended.
struct BackgroundJobsTests {
    @Test func aJobIsCountedWhileItRunsAndEndsWhenCancelled() async {
        let jobs = BackgroundJobs()
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

    @Test func aJobThatEndsIsNoLongerCountedAndEndedReturns() async {
        let jobs = BackgroundJobs()
        let job = jobs.start(.deadlineWork) {}
        await job.ended()
        #expect(jobs.counts[.deadlineWork] == 0)
        job.cancel()  // after its end: nothing
        await job.ended()
    }
}
