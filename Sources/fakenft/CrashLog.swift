import Foundation
import TerminalUI

/// Sends Swift's crash backtraces to a file instead of the user's terminal, where the
/// interactive backtracer would wait 30 s in raw mode.
enum CrashLog {
    /// The runtime reads `SWIFT_BACKTRACE` only when the process starts, so when the user has not
    /// set it, this sets it and starts the program again (once: the variable is then set).
    /// Afterwards a crash restores the terminal and prints one line naming `file`.
    static func routeBacktraces(to file: URL) {
        let environment = ProcessInfo.processInfo.environment
        if environment["SWIFT_BACKTRACE"] == nil {
            try? FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            setenv("SWIFT_BACKTRACE", "interactive=no,color=no,output-to=\(file.path)", 1)
            // The resolved path, not /proc/self/exe itself, so that the process keeps its name
            // (`ps`, `pkill fakenft`). Returns only if it failed: go on as we are.
            let program =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "/proc/self/exe"
            execv(program, CommandLine.unsafeArgv)
        }
        if environment["SWIFT_BACKTRACE"]?.contains("output-to=\(file.path)") == true {
            TerminalSession.setCrashNotice("fakenft crashed; the backtrace is in \(file.path)")
        } else {
            TerminalSession.setCrashNotice("fakenft crashed.")
        }
    }
}
