import Foundation
import FakeNFTTesting

/// The real binary in tmux against a server that never answers: keys must not wait on it.
enum HostileServerBenchmarks {
    /// Key press to the changed screen (tab switches, through tmux) and `q` to the exit, while
    /// every request hangs.
    static func keysWhileRequestsHang(binary: String) throws {
        let server = try HostileServer.start(.hanging)
        defer { server.stop() }
        let socket = "fakenft-bench-hang-\(getpid())"
        defer { _ = try? spawnAndWait("/usr/bin/tmux", ["-L", socket, "kill-server"]) }
        func tmux(_ arguments: String...) throws -> String {
            try spawnAndWait("/usr/bin/tmux", ["-L", socket] + arguments).output
        }
        let state = try stateFolderPastWelcome(server: server.baseURL.absoluteString)
        defer { try? FileManager.default.removeItem(at: state) }
        _ = try tmux(
            "new-session", "-d", "-x", "100", "-y", "30", "env", "TERM=xterm-256color", "SWIFT_BACKTRACE=enable=no",
            "XDG_STATE_HOME=\(state.path)", binary, "--server", server.baseURL.absoluteString)
        func waitFor(_ text: String, timeout: Double = 10) throws -> Double {
            let start = Date()
            while Date().timeIntervalSince(start) < timeout {
                if try tmux("capture-pane", "-p").contains(text) { return Date().timeIntervalSince(start) * 1000 }
                usleep(1_000)
            }
            throw BenchmarkFailure(description: "'\(text)' did not appear")
        }
        _ = try waitFor("4 Statistics")
        var samples = Samples()
        for i in 0..<20 {
            let (key, title) = i % 2 == 0 ? ("3", "Profile") : ("2", "Cart")
            _ = try tmux("send-keys", key)
            samples.add(try waitFor("\n \(title)"))
        }
        report(
            "key to screen while every request hangs (tmux, median / p99)",
            "\(format(samples.median, 1)) / \(format(samples.percentile(0.99), 1)) ms")
        let pid = try tmux("list-panes", "-F", "#{pane_pid}").trimmingCharacters(in: .whitespacesAndNewlines)
        let start = Date()
        _ = try tmux("send-keys", "q")
        // Exited: gone, or a zombie tmux has not reaped yet.
        while let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), !stat.contains(") Z "),
            Date().timeIntervalSince(start) < 10
        { usleep(500) }
        report("q to exit while every request hangs", "\(format(Date().timeIntervalSince(start) * 1000, 1)) ms")
    }
}
