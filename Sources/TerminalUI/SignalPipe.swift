import Glibc
import Synchronization

nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
/// SIGCONTs received (lock-free: safe to count in a handler).
private let continuations = Atomic<Int>(0)

/// Turns signals into bytes on a pipe, so the main actor handles them outside signal context.
enum SignalPipe {
    /// Installs handlers for `signals` (before curses starts, so ncurses leaves them alone) and
    /// returns the read end of the pipe.
    static func install(_ signals: [Int32]) -> Int32 {
        let fds = Syscalls.makePipe(nonBlockingRead: true)
        signalPipeWriteEnd = fds.write
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signo in
            if signo == SIGCONT { continuations.add(1, ordering: .relaxed) }
            var byte = UInt8(truncatingIfNeeded: signo)
            _ = write(signalPipeWriteEnd, &byte, 1)  // async-signal-safe
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for s in signals { sigaction(s, &action, nil) }
        return fds.read
    }

    /// How many SIGCONTs arrived so far.
    static var continued: Int { continuations.load(ordering: .relaxed) }

    /// Puts the default dispositions back.
    static func restoreDefaults(_ signals: [Int32]) {
        for s in signals { signal(s, SIG_DFL) }
    }
}
