import FakeNFTTesting
import Foundation
import Glibc
import Synchronization

/// The real binary on a pseudo-terminal of its own that answers the start-up queries as kitty,
/// Ghostty or WezTerm do (the kitty keyboard protocol, synchronized output known and reset, a
/// dark colour scheme and background), keeping every byte the app writes.
final class ModernTerminal: Sendable {
    let pid: pid_t
    let home: URL
    private let master: Int32
    private let transcript = Transcript()

    /// What the app wrote, shared with the thread that reads it.
    private final class Transcript: Sendable {
        let bytes = Mutex<[UInt8]>([])
        let stopped = Atomic(false)
    }
    /// What the terminal answers to the queries that end with DA1.
    static let answers =
        "\u{1B}[?0u\u{1B}[?2026;2$y\u{1B}[?997;1n\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?62;22c"

    /// Starts the app with `arguments` (its own home folder, an embedded server of its own).
    init(arguments: [String] = [], columns: Int = 100, rows: Int = 30) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("fakenft-modern-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var master: Int32 = -1, slave: Int32 = -1
        var window = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &window) == 0 else { throw E2EError("no pseudo-terminal") }
        defer { close(slave) }
        var name = [CChar](repeating: 0, count: 128)
        guard ttyname_r(slave, &name, name.count) == 0 else { throw E2EError("the pseudo-terminal has no name") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)  // after setsid: the controlling terminal
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, 0x80)  // POSIX_SPAWN_SETSID
        let environment = [
            "HOME=\(home.path)", "TERM=xterm-256color", "LANG=C.UTF-8", "PATH=/usr/bin:/bin",
            "SWIFT_BACKTRACE=enable=no",
        ]
        let argv = ([Tmux.binary, "--data", home.appendingPathComponent("data").path] + arguments).map { strdup($0) }
        let envp = environment.map { strdup($0) }
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, Tmux.binary, &actions, &attributes, argv + [nil], envp + [nil])
        guard status == 0 else { throw E2EError("the app could not start: \(status)") }
        self.pid = pid
        self.master = master
        let transcript = transcript, terminal = master
        Thread.detachNewThread { Self.readAndAnswer(terminal, into: transcript) }
    }

    deinit {
        transcript.stopped.store(true, ordering: .relaxed)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(at: home)
    }

    /// Reads what the app writes until it ends, answering each DA1 query (the end of a query set).
    private static func readAndAnswer(_ master: Int32, into transcript: Transcript) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var answered = 0
        while !transcript.stopped.load(ordering: .relaxed) {
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 50) >= 0 else { return }
            guard ready.revents != 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { return }
            let queries = transcript.bytes.withLock { written in
                written += buffer[..<count]
                return String(decoding: written, as: UTF8.self).components(separatedBy: "\u{1B}[c").count - 1
            }
            while answered < queries {
                send(answers, to: master)
                answered += 1
            }
        }
        close(master)
    }

    private static func send(_ text: String, to master: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Sends `text` as the terminal would for keys typed or reports.
    func type(_ text: String) { Self.send(text, to: master) }

    /// How many bytes the app has written so far: a mark to read what comes after.
    var mark: Int { transcript.bytes.withLock { $0.count } }

    /// A mark just after the last synchronized frame the app has ended so far: one it is still
    /// writing comes after it whole.
    var markAfterLastFrame: Int {
        let end = Array("\u{1b}[?2026l".utf8)
        return transcript.bytes.withLock { bytes in
            guard bytes.count >= end.count else { return 0 }
            for start in stride(from: bytes.count - end.count, through: 0, by: -1)
            where bytes[start..<start + end.count].elementsEqual(end) {
                return start + end.count
            }
            return 0
        }
    }

    /// What the app wrote after `mark`.
    func output(after mark: Int = 0) -> String {
        transcript.bytes.withLock { String(decoding: $0.dropFirst(mark), as: UTF8.self) }
    }

    /// What the app wrote after `mark`, once it holds `text`.
    @discardableResult
    func waitFor(_ text: String, after mark: Int = 0, within limit: Duration = .seconds(30)) async throws -> String {
        var seen = ""
        let found = await polled(within: limit) {
            seen = output(after: mark)
            return seen.contains(text)
        }
        guard found else {
            throw E2EError("'\(text)' never written; the last of it: \(seen.suffix(1500).debugDescription)")
        }
        return seen
    }

    /// Waits past the onboarding and the sign-in screen to the catalog.
    func passWelcome() async throws {
        try await waitFor("Welcome to FakeNFT")
        let mark = mark
        type("s")
        _ = await polled(within: .seconds(30)) {
            let seen = output(after: mark)
            return seen.contains("Continue without an account") || seen.contains("9 collections")
        }
        if !output(after: mark).contains("9 collections") {
            let signIn = self.mark
            type("\u{1B}[27u")  // Esc, as the kitty keyboard protocol sends it
            try await waitFor("9 collections", after: signIn)
        }
    }

    /// The app's exit status as a shell says it (128 + a signal that ended it), once it has
    /// exited (nil if not within `limit`).
    func exitStatus(within limit: Duration = .seconds(20)) async -> Int32? {
        var status: Int32 = 0
        let ended = await polled(within: limit) { waitpid(pid, &status, WNOHANG) == pid }
        guard ended else { return nil }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
    }

    /// The app's log.
    func log() -> String {
        (try? String(contentsOf: home.appendingPathComponent(".local/state/fakenft/fakenft.log"), encoding: .utf8))
            ?? ""
    }
}
