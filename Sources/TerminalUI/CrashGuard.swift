import Glibc

// Raw storage only: a signal handler must not allocate.
nonisolated(unsafe) private let savedTermios = UnsafeMutablePointer<termios>.allocate(capacity: 1)
nonisolated(unsafe) private let previousCrashActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
nonisolated(unsafe) private var crashGuardArmed = false

/// Restores the terminal when the process crashes, then lets the crash continue
/// (Swift's backtracer still prints).
enum CrashGuard {
    static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// Saves the current terminal modes and installs the crash handlers.
    static func install() {
        guard tcgetattr(STDIN_FILENO, savedTermios) == 0 else { return }
        crashGuardArmed = true
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signo, info, _ in
                if crashGuardArmed {
                    let reset: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1000l\u{1B}[?2004l\u{1B}[?1049l\r\n"
                    _ = write(STDOUT_FILENO, reset.utf8Start, reset.utf8CodeUnitCount)
                    _ = tcsetattr(STDIN_FILENO, TCSANOW, savedTermios)
                }
                _ = sigaction(signo, previousCrashActions + Int(signo), nil)  // chain to the previous handler
                // A fault re-runs the faulting instruction on return; a signal sent by kill/raise
                // (si_code <= 0) or an abort must be raised again to end the process.
                if signo == SIGABRT || (info?.pointee.si_code ?? 0) <= 0 { raise(signo) }
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND) | SA_SIGINFO
            sigaction(s, &action, previousCrashActions + Int(s))
        }
    }

    /// Called after a normal shutdown: nothing left to restore.
    static func disarm() { crashGuardArmed = false }
}
