import ChildProcesses
import FakeNFTModels
import Foundation
import Glibc
import Synchronization

/// The app of one SSH session: a process of its own on a pseudo-terminal of its own, the
/// terminal's controlling process in a new session, with only the environment it is given and
/// its secrets on a descriptor of their own. A thread of its own sleeps in waitpid(2) until it
/// exits (continuing it at once when something stops it: a session has no shell to say `fg`),
/// and tells whoever waits for its exit.
final class AppOnTerminal: Sendable {
    let pid: pid_t
    /// The terminal's side the server reads what the app draws from (and writes what the visitor
    /// typed that ``type(_:)`` could not, once the app takes it); handed over to the channel that
    /// relays it (which closes it).
    let master: Int32
    /// A second descriptor of the master side, for sizes and keys: it stays valid after the relay
    /// closed the first, until ``close()``, which takes it (under the lock: a number closed may be
    /// given to another file at once).
    private let control: Mutex<Int32?>
    private let exit = Mutex(Exit())

    /// The exit status once the app has ended, and who waits for it until then.
    private struct Exit {
        var status: Int32?
        var waiting: [@Sendable (Int32) -> Void] = []
    }

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

    /// How far below the server an app runs (nice(1)'s scale: 0 is the server's, 19 the lowest).
    static let niceness: Int32 = 10

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `arguments` (the executable first) on a new pseudo-terminal of `size`, `secrets`
    /// readable on descriptor ``SSHSessionVariables/secretsDescriptorNumber`` (a pipe the server
    /// has written and closed: the app reads them to its end, once).
    init(arguments: [String], environment: [String: String], secrets: String, size: Size) throws {
        let secretsPipe = try Self.pipe(holding: secrets)
        defer { Glibc.close(secretsPipe) }
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
        let secretsNumber = SSHSessionVariables.secretsDescriptorNumber
        posix_spawn_file_actions_adddup2(&actions, secretsPipe, secretsNumber)
        ChildDescriptors.closeInherited(&actions, from: secretsNumber + 1)
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
        // Below the server: a visitor's app never slows the API, the front or the other visitors' keys.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), Self.niceness)
        self.pid = pid
        self.master = master
        let control = dup(master)
        _ = fcntl(control, F_SETFL, fcntl(control, F_GETFL) | O_NONBLOCK)  // the relay's thread never waits on it
        self.control = Mutex(control)
        let waiter = Thread { [self] in waitForExit() }
        waiter.name = "app \(pid)"
        waiter.stackSize = 64 * 1024
        waiter.start()
    }

    /// The read end of a pipe that holds `text` and whose write end is closed (close-on-exec
    /// here: only the child it is given to keeps it).
    private static func pipe(holding text: String) throws -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else {
            throw StartFailure(description: "no pipe for the app's secrets: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { Glibc.close(ends[1]) }
        let bytes = Array(text.utf8.prefix(SSHSessionVariables.secretsLimit))
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            Glibc.close(ends[0])
            throw StartFailure(description: "the app's secrets could not be written")
        }
        return ends[0]
    }

    /// The waiter's thread: until the app has exited, continues it whenever it is stopped; then
    /// keeps its status (128 + the signal that ended it) and tells whoever waits.
    private func waitForExit() {
        var status: Int32 = 0
        while true {
            let found = waitpid(pid, &status, WUNTRACED)
            if found == -1 && errno == EINTR { continue }
            if found == pid && status & 0xFF == 0x7F {  // stopped
                _ = kill(-pid, SIGCONT)
                continue
            }
            break
        }
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let waiting = exit.withLock { exit in
            exit.status = code
            defer { exit.waiting = [] }
            return exit.waiting
        }
        for tell in waiting { tell(code) }
    }

    /// Calls `ended` with the app's exit status once it has exited (at once, when it has).
    func whenExited(_ ended: @escaping @Sendable (Int32) -> Void) {
        let status = exit.withLock { exit -> Int32? in
            if exit.status == nil { exit.waiting.append(ended) }
            return exit.status
        }
        if let status { ended(status) }
    }

    /// glibc's `POSIX_SPAWN_SETSID` (2.26 and later), which Swift's Glibc module does not declare:
    /// the child starts a new session.
    private static let setSession: Int16 = 0x80

    /// Tells the app its terminal's new size (the kernel sends it SIGWINCH).
    func resize(_ size: Size) {
        var window = size.winsize
        control.withLock { control in
            if let control { _ = ioctl(control, UInt(TIOCSWINSZ), &window) }
        }
    }

    /// Writes what the visitor typed to the app's terminal, as much as it takes now without waiting;
    /// returns how many bytes that is (all of them once the terminal is closed or gone: they
    /// are for no one).
    func type(_ bytes: UnsafeRawBufferPointer) -> Int {
        control.withLock { control in
            guard let control, let start = bytes.baseAddress else { return bytes.count }
            while true {
                let written = write(control, start, bytes.count)
                if written >= 0 { return written }
                if errno == EINTR { continue }
                return errno == EAGAIN ? 0 : bytes.count
            }
        }
    }

    /// Sends `signal` to the app's process group (the app and whatever it started), while it runs.
    func signal(_ signal: Int32) {
        guard exit.withLock({ $0.status }) == nil else { return }
        _ = kill(-pid, signal)
    }

    /// Closes the second descriptor (once); the relay closes ``master``.
    func close() {
        control.withLock { control in
            if let open = control { Glibc.close(open) }
            control = nil
        }
    }
}
