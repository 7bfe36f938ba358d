import Foundation
import TerminalUI

/// Sends Swift's crash backtraces to a file instead of the user's terminal, where the
/// interactive backtracer would wait 30 s in raw mode.
enum CrashLog {
    /// Unless the user set `SWIFT_BACKTRACE`, a crash restores the terminal, prints one line
    /// naming `file`, and moves the standard streams there before Swift's backtracer runs (it
    /// writes to them), so it never takes the terminal.
    static func routeBacktraces(to file: URL) {
        guard ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil else {
            return TerminalSession.setCrashNotice("fakenft crashed.")
        }
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        TerminalSession.setCrashLog(file.path)
        TerminalSession.setCrashNotice("fakenft crashed; the backtrace is in \(file.path)")
    }
}
