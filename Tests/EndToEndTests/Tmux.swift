import FakeNFTCore
import Foundation
import Glibc
import Testing
import FakeNFTTesting

/// A tmux server of its own running the real `fakenft` binary, for end-to-end tests.
/// Tests wait for what they expect on screen instead of sleeping fixed times.
final class Tmux {
    let socket = "fakenft-e2e-\(UUID().uuidString.prefix(8))"
    let session = "t"
    let directory: URL
    /// Whether this tmux made `directory` (and removes it when it ends).
    private let ownsDirectory: Bool

    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["FAKENFT_BIN"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/fakenft").path
    }

    /// A tmux of its own whose shell's home is a new folder, or `home`'s (another window of the
    /// same user: the same data, state and cache folders).
    init(width: Int = 100, height: Int = 30, sharingHomeWith home: Tmux? = nil) async throws {
        directory = home?.directory ?? FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        ownsDirectory = home == nil
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw E2EError("fakenft binary not found at \(Self.binary); run `make test` (it builds it first)")
        }
        try await run([
            "new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)",
            "env", "-i", "PATH=/usr/bin:/bin", "HOME=\(directory.path)", "TERM=xterm-256color", "LANG=C.UTF-8",
            "SWIFT_BACKTRACE=enable=no", "HISTFILE=", "bash", "--norc", "--noprofile",
        ])
        try await type("PS1='$ '; cd \(directory.path)")
    }

    deinit {
        _ = try? spawnAndWait("/usr/bin/tmux", ["-L", socket, "kill-server"])
        guard ownsDirectory else { return }
        // A server started in the pane outlives it: the SIGHUP its shell passes on to its jobs only
        // makes `fakenft serve` read its configuration again.
        let servers = Self.servers(runningIn: directory), directory = directory
        guard !servers.isEmpty else {
            try? FileManager.default.removeItem(at: directory)
            return
        }
        for server in servers { kill(server, SIGTERM) }
        // The folder removed once they are gone (none writes into it as it goes), on a thread of
        // its own: a server's graceful stop takes up to seconds, and the tests' threads are few.
        Thread.detachNewThread {
            for _ in 0..<100 where servers.contains(where: { kill($0, 0) == 0 }) { usleep(50_000) }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The `fakenft serve` processes whose working folder is `folder` or one inside it.
    private static func servers(runningIn folder: URL) -> [pid_t] {
        let root = folder.resolvingSymlinksInPath().path
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.compactMap { name in
            guard let pid = pid_t(name),
                let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(name)/cwd"),
                cwd == root || cwd.hasPrefix(root + "/"),
                let command = FileManager.default.contents(atPath: "/proc/\(name)/cmdline"),
                command.split(separator: 0).dropFirst().first.map({ Array($0) }) == Array("serve".utf8)
            else { return nil }
            return pid
        }
    }

    /// Opens a window named `name` running `command`, in the background, at the session's next
    /// free index. The target is `session:`: a bare `t` is also read as the start of a window's
    /// name (`two`, `tunnel`), and a window was once made at that one's index, refused as in use.
    func newWindow(_ name: String, _ command: String) async throws {
        let said = try await run(["new-window", "-d", "-t", "\(session):", "-n", name, command])
        guard said.isEmpty else { throw E2EError("no window \(name): \(said)") }
    }

    /// Runs a tmux command and returns its output.
    @discardableResult
    func run(_ args: [String]) async throws -> String {
        try await spawned("/usr/bin/tmux", ["-L", socket] + args).output
    }

    /// Starts the app (with `arguments`) in an `sh -c` job that prints `EXIT=<code>` when it ends,
    /// and waits for the catalog to load. The marker is split in the command so only output matches.
    /// A first start shows onboarding and, on a server with accounts, the sign-in screen: these
    /// are skipped (s, then Esc: "continue without an account"), unless `throughWelcome` is false.
    func launchApp(_ arguments: String = "", waitingFor text: String = "9 collections", throughWelcome: Bool = true)
        async throws
    {
        try await type("sh -c '\(Self.binary) \(arguments); echo \"EX\"\"IT=$?\"'")
        if throughWelcome { try await passWelcome(waitingFor: text) } else { try await waitFor(text) }
    }

    /// Waits for `text`, skipping onboarding (s) and the sign-in screen (Esc) when they come first.
    @discardableResult
    func passWelcome(waitingFor text: String) async throws -> String {
        let onboarding = ["Welcome to FakeNFT", "Добро пожаловать в FakeNFT"],
            signIn = ["Continue without an account", "Продолжить без аккаунта"]
        var screen = try await waitUntil("'\(text)', onboarding or the sign-in screen") { screen in
            screen.contains(text) || (onboarding + signIn).contains { screen.contains($0) }
        }
        if onboarding.contains(where: screen.contains), !screen.contains(text) {
            try await keys("s")
            screen = try await waitUntil("'\(text)' or the sign-in screen") { screen in
                screen.contains(text) || signIn.contains { screen.contains($0) }
            }
        }
        if signIn.contains(where: screen.contains), !screen.contains(text) { try await keys("Escape") }
        return try await waitFor(text)
    }

    /// Marks onboarding as seen and "continue without an account" as chosen for `server`, in a
    /// state folder, as the app itself would after a first start (for harnesses that cannot
    /// type their way through).
    static func skipWelcome(stateHome: String, server: String) throws {
        let folder = URL(fileURLWithPath: stateHome).appendingPathComponent("fakenft")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("onboarding-done"))
        try AccountStore(fileURL: folder.appendingPathComponent("account.json")).save(
            SavedSignIn(server: server, account: nil))
    }

    /// Types a shell command line and presses Enter.
    func type(_ line: String) async throws {
        try await run(["send-keys", "-t", session, "-l", line])
        try await keys("Enter")
    }

    /// Sends tmux key names (`Tab`, `Escape`, `C-z`, `q`).
    func keys(_ names: String...) async throws { try await run(["send-keys", "-t", session] + names) }

    /// The pane's text; with `colors`, its SGR escapes too.
    func screen(colors: Bool = false) async throws -> String {
        try await run(["capture-pane", "-t", session, "-p"] + (colors ? ["-e"] : []))
    }

    /// Waits until the screen (with `colors`, its escapes too) satisfies `condition` and has
    /// settled: two captures in a row alike, so a frame tmux has taken only part of (a large frame
    /// crosses several reads) is never the one returned. A screen that goes on changing while it
    /// satisfies `condition` (a spinner) is returned once ``unsettledCaptures`` captures in a row
    /// have satisfied it; one that never satisfies it fails after `timeout` seconds.
    @discardableResult
    func waitUntil(_ what: String, timeout: TimeInterval = 15, colors: Bool = false, _ condition: (String) -> Bool)
        async throws -> String
    {
        var last = ""
        var satisfying: String?
        var inARow = 0
        let shown = try await polled(every: .milliseconds(30), within: .seconds(timeout)) {
            let previous = satisfying
            last = try await screen(colors: colors)
            satisfying = condition(last) ? last : nil
            inARow = satisfying == nil ? 0 : inARow + 1
            return satisfying != nil && (satisfying == previous || inARow >= Self.unsettledCaptures)
        }
        guard shown else { throw E2EError("timed out waiting for \(what); screen was:\n\(last)") }
        return last
    }

    /// Captures in a row that satisfy a wait and differ, after which the last is taken as it is.
    static let unsettledCaptures = 10

    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 15) async throws -> String {
        try await waitUntil("'\(text)'", timeout: timeout) { $0.contains(text) }
    }

    func resize(width: Int, height: Int) async throws {
        try await run(["resize-window", "-t", session, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The pid of the program started by the `sh -c` wrapper in the pane's shell.
    func childPID() async throws -> Int32 {
        let shell = try await run(["list-panes", "-t", session, "-F", "#{pane_pid}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let children = try await spawned("/usr/bin/pgrep", ["-P", shell]).output
        guard let wrapper = children.split(separator: "\n").first else {
            throw E2EError("no child process in the pane")
        }
        let grandchildren = try await spawned("/usr/bin/pgrep", ["-P", String(wrapper)]).output
        guard let pid = Int32(grandchildren.split(separator: "\n").first ?? "") else {
            throw E2EError("no fakenft process in the pane")
        }
        return pid
    }

    /// The state letter of a process (`S` sleeping, `T` stopped), from /proc.
    static func state(of pid: Int32) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.range(of: ") ")
        else { return nil }
        return stat[close.upperBound...].first
    }

    /// Starts `fakenft serve` in the pane's shell, in the background, on a free port with its data
    /// in `data` (a folder of this test's), with more `arguments`; returns its address once it listens.
    /// On `port` when given.
    func startServer(data: String = "server-data", arguments: String = "", port given: Int? = nil) async throws -> URL {
        let port = try given ?? Self.freePort()
        try await type("\(Self.binary) serve --port \(port) --data \(data) --quiet \(arguments) > server.log 2>&1 &")
        try await type("clear")
        _ = await polled(within: .seconds(10)) { (try? file("server.log"))?.contains("listening") ?? false }
        return URL(string: "http://127.0.0.1:\(port)")!
    }

    /// A port nobody listens on now.
    static func freePort() throws -> Int {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in(
            sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")),
            sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(fd, $0, length) == 0, getsockname(fd, $0, &length) == 0 else {
                    throw E2EError("no free port")
                }
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func file(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }
}

/// Waits (at most `timeout`) until `condition` holds, asking every 50 ms; an issue when it never does.
func eventually(_ what: String, timeout: Duration = .seconds(20), _ condition: () async throws -> Bool) async throws {
    if try await !polled(every: .milliseconds(50), within: timeout, condition) {
        Issue.record("timed out waiting for \(what)")
    }
}

struct E2EError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension APIClient {
    /// Every collection in the Catalog's default order: most NFTs first, then by name.
    func collectionsInCatalogOrder() async throws -> [NFTCollection] {
        try await collections(page: 0, size: 100)
            .sorted { $0.nfts.count != $1.nfts.count ? $0.nfts.count > $1.nfts.count : $0.name < $1.name }
    }
}
