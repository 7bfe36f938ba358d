import ChildProcesses
import Glibc
import Synchronization

/// The app of one SSH session: a process of its own on a pseudo-terminal of its own, the
/// terminal's controlling process in a new session, with only the environment it is given.
final class AppOnTerminal: Sendable {
    let pid: pid_t
    /// The terminal's side the server reads what the app draws from and writes what the visitor
    /// types to; handed over to the channel that relays it (which closes it).
    let master: Int32
    /// A second descriptor of the master side, for sizes: it stays valid after the relay closed
    /// the first, until ``close()``.
    private let control: Int32
    private let ended = Mutex<Int32?>(nil)
    private let closed = Atomic(false)

    /// A terminal's size in characters, kept within what a terminal can be (0×0 and 65535×65535
    /// come from clients too).
    struct Size: Sendable, Equatable {
        var columns: Int
        var rows: Int

        init(columns: Int, rows: Int) {
            self.columns = min(max(columns, 1), 1_000)
            self.rows = min(max(rows, 1), 500)
        }

        fileprivate var winsize: Glibc.winsize {
            Glibc.winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        }
    }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `arguments` (the executable first) on a new pseudo-terminal of `size`.
    init(arguments: [String], environment: [String: String], size: Size) throws {
        var master: Int32 = -1, slave: Int32 = -1
        var window = size.winsize
        guard openpty(&master, &slave, nil, nil, &window) == 0 else {
            throw StartFailure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        defer { Glibc.close(slave) }
        var name = [CChar](repeating: 0, count: 128)
        guard ttyname_r(slave, &name, name.count) == 0 else {
            Glibc.close(master)
            throw StartFailure(description: "the pseudo-terminal has no name")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // After setsid (below), opening the terminal makes it the session's controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        ChildDescriptors.closeInherited(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        ChildSignals.reset(&attributes)
        var flags: Int16 = 0
        posix_spawnattr_getflags(&attributes, &flags)
        posix_spawnattr_setflags(&attributes, flags | Self.setSession)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard status == 0 else {
            Glibc.close(master)
            throw StartFailure(description: "the app could not start: \(String(cString: strerror(status)))")
        }
        self.pid = pid
        self.master = master
        control = dup(master)
    }

    /// glibc's `POSIX_SPAWN_SETSID` (2.26 and later), which Swift's Glibc module does not declare:
    /// the child starts a new session.
    private static let setSession: Int16 = 0x80

    /// Tells the app its terminal's new size (the kernel sends it SIGWINCH).
    func resize(_ size: Size) {
        var window = size.winsize
        _ = ioctl(control, UInt(TIOCSWINSZ), &window)
    }

    /// Sends `signal` to the app's process group (the app and whatever it started).
    func signal(_ signal: Int32) {
        guard ended.withLock({ $0 }) == nil else { return }
        _ = kill(-pid, signal)
    }

    /// The app's exit status (128 + the signal that ended it) once it has ended; nil while it runs.
    /// An app found stopped (a SIGSTOP from anywhere: a session has no shell to say `fg`) is
    /// continued, so it never holds its visitor's place frozen.
    func exitStatus() -> Int32? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG | WUNTRACED) == pid else { return nil }
            if status & 0xFF == 0x7F {  // stopped
                _ = kill(-pid, SIGCONT)
                return nil
            }
            let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            ended = code
            return code
        }
    }

    /// Continues the app if it was found stopped (called as its visitor types).
    func continueIfStopped() { _ = exitStatus() }

    /// Closes the size descriptor (once); the relay closes ``master``.
    func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        Glibc.close(control)
    }
}
