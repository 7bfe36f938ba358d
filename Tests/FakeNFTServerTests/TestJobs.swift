@testable import FakeNFTServer

/// Background jobs that run for the whole test process: for tests of one part of the server
/// (a database, a batch, a deadline) with no server's lifecycle around it. A server the tests
/// start runs its own.
enum TestJobs {
    static let running: BackgroundJobs = {
        let jobs = BackgroundJobs()
        Task.detached { await jobs.run() }
        return jobs
    }()

    /// The server's deadlines on these jobs.
    static let deadlines = Deadlines(jobs: running)
}
