import Foundation
import Testing
import TerminalUI

/// Not a test alone: the process `ShellEndToEndTests.anEndingSignalEndsABusySession` starts in
/// tmux (its variable enables it). A terminal session whose main actor never comes back, as a
/// frozen screen: the input thread must restore the terminal and end the process on a signal.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FAKENFT_BUSY_SESSION"] != nil))
struct BusySessionChild {
    @MainActor @Test func aSessionWhoseMainActorStaysBusy() throws {
        let session = try TerminalSession()
        let busy = try #require(ProcessInfo.processInfo.environment["FAKENFT_BUSY_SESSION"])
        FileManager.default.createFile(atPath: busy, contents: Data())
        let end = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < end {}  // never yields: what an ending signal must not wait for
        session.shutdown()
    }
}
