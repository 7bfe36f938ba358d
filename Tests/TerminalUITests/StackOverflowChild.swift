import Foundation
import Testing
import TerminalUI

/// Not a test alone: the process `ShellEndToEndTests.aStackOverflowOnAWorkerThreadLeavesATrace`
/// starts in tmux (its variable enables it, naming the crash log). A terminal session, then a
/// stack overflow on one of Swift's worker threads: the crash handler must still run.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FAKENFT_OVERFLOW_CRASH_LOG"] != nil))
struct StackOverflowChild {
    @MainActor @Test func aWorkerThreadOverflowsItsStack() async throws {
        let log = try #require(ProcessInfo.processInfo.environment["FAKENFT_OVERFLOW_CRASH_LOG"])
        TerminalSession.setCrashNotice("crashed; the backtrace is in \(log)")
        TerminalSession.setCrashLog(log)
        let session = try TerminalSession()
        let depth = await Task.detached { Recursion.deeper(0) }.value
        session.shutdown()
        Issue.record("the stack did not overflow (\(depth))")
    }
}

/// Calls that each keep a frame on the stack until it runs out.
enum Recursion {
    /// The next call, through a function value the optimizer cannot see through (a call it can
    /// see, it turns into a loop).
    nonisolated(unsafe) static var next: (Int) -> Int = deeper

    @inline(never) static func deeper(_ n: Int) -> Int {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 512) { frame in
            frame.initialize(repeating: n)
            return next(n &+ 1) &+ frame[n % 512]  // used after the call: no tail call
        }
    }
}
