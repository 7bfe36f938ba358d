import CSignalStacks
import Glibc

// Raw storage only: a signal handler must not allocate.
nonisolated(unsafe) private let savedTermios = UnsafeMutablePointer<termios>.allocate(capacity: 1)
nonisolated(unsafe) private let previousCrashActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
nonisolated(unsafe) private var crashGuardArmed = false
nonisolated(unsafe) private var crashNotice: UnsafeMutablePointer<CChar>?
nonisolated(unsafe) private var crashNoticeLength = 0
nonisolated(unsafe) private var crashLogPath: UnsafeMutablePointer<CChar>?

/// Restores the terminal when the process crashes, prints the crash notice, then lets the crash
/// continue to Swift's backtracer, with the standard streams moved to the crash log when one is
/// set (so it writes there, and never waits for a key on the terminal).
enum CrashGuard {
    /// The line printed after the terminal is restored (where the backtrace goes). Set it before
    /// the session starts: the handler only reads it.
    static func setNotice(_ text: String) {
        let line = strdup(text + "\r\n")
        crashNotice = line
        crashNoticeLength = line.map { strlen($0) } ?? 0
    }

    /// The file Swift's backtracer writes to after a crash, in place of the terminal. Set it
    /// before the session starts: the handler only reads it.
    static func setLog(_ path: String) {
        crashLogPath = strdup(path)
    }

    static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGSYS]

    /// Saves the current terminal modes and installs the crash handlers. Every thread has an
    /// alternate signal stack for them (``CSignalStacks``: the threads made later get one as
    /// they start), so a stack overflow on any thread still restores the terminal.
    static func install() {
        guard tcgetattr(STDIN_FILENO, savedTermios) == 0 else { return }
        _ = fakenft_give_signal_stack()
        crashGuardArmed = true
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signo, info, context in
                if crashGuardArmed {
                    CrashGuard.restoreTerminal()
                    if let notice = crashNotice { _ = write(STDERR_FILENO, notice, crashNoticeLength) }
                    if let path = crashLogPath {  // open, dup2 and close are async-signal-safe
                        let log = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600), nothing = open("/dev/null", O_RDONLY)
                        if log >= 0 {
                            _ = dup2(log, STDOUT_FILENO)
                            _ = dup2(log, STDERR_FILENO)
                            _ = close(log)
                        }
                        if nothing >= 0 {
                            _ = dup2(nothing, STDIN_FILENO)
                            _ = close(nothing)
                        }
                    }
                }
                // The previous handler (Swift's backtracer) runs here, then the default action
                // ends the process: returning could resume it when the signal came from kill.
                let previous = previousCrashActions[Int(signo)]
                let installed = unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self)
                if installed > 1 {  // neither SIG_DFL (0) nor SIG_IGN (1)
                    if previous.sa_flags & SA_SIGINFO != 0 {
                        previous.__sigaction_handler.sa_sigaction?(signo, info, context)
                    } else {
                        previous.__sigaction_handler.sa_handler?(signo)
                    }
                }
                signal(signo, SIG_DFL)
                raise(signo)
            }
            // The same conditions as the Swift runtime's own handler, which runs inside this one:
            // its memory-reading helper thread inherits this mask, and a fault there while
            // SIGSEGV/SIGBUS were blocked killed the process mid-backtrace, leaving a
            // `swift-backtrace` waiting forever and no backtrace written. So the crash signals
            // stay unblocked (SA_NODEFER, not in the mask), everything else is blocked, and the
            // handler runs on the alternate stack (a stack overflow has no stack left).
            sigfillset(&action.sa_mask)
            for other in signals { sigdelset(&action.sa_mask, other) }
            action.sa_flags =
                Int32(truncatingIfNeeded: UInt32(SA_RESETHAND) | UInt32(SA_NODEFER)) | SA_SIGINFO | SA_ONSTACK
            sigaction(s, &action, previousCrashActions + Int(s))
        }
    }

    /// Puts the terminal back as it was at start: attributes, cursor, mouse, paste mode, the
    /// normal screen, then the saved modes. Async-signal-safe (writes and tcsetattr only), and
    /// needs nothing of the main actor: the crash handler and the input thread's deadline for an
    /// ending signal call it.
    static func restoreTerminal() {
        guard crashGuardArmed else { return }
        // attributes, the cursor, the keyboard flags, the reports (scheme, focus, mouse, paste), a
        // frame left open, the normal screen
        let reset: StaticString = """
            \u{1B}[0m\u{1B}[?25h\u{1B}[<u\u{1B}[?2031l\u{1B}[?1004l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?2004l\
            \u{1B}[?2026l\u{1B}[r\u{1B}[?1049l\r\n
            """
        _ = write(STDOUT_FILENO, reset.utf8Start, reset.utf8CodeUnitCount)
        _ = tcsetattr(STDIN_FILENO, TCSANOW, savedTermios)
    }

    /// Called after a normal shutdown: nothing left to restore.
    static func disarm() { crashGuardArmed = false }
}
