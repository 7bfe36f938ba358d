import FakeNFTCore
import FakeNFTServer
import FakeNFTTesting
import Foundation

/// The real binary in tmux, left open while someone else changes the same server: what a key
/// costs before and after 1,000 live updates, and what the app does idle after them.
enum LongSessionBenchmarks {
    /// Keys pressed per measure (ticks are 10 ms: enough keys for a figure).
    static let keys = 200

    static func keyCostAfterLiveUpdates(binary: String) async throws {
        let server = try await FakeNFTServer.start(
            ServerConfiguration(port: 0, dataDirectory: ServerBenchmarks.temporaryDirectory()))
        let app = try AppInTmux(binary: binary, server: server.baseURL, name: "long")
        defer { app.close() }
        let pid = app.pid
        func tmux(_ arguments: [String]) throws -> String { try app.tmux(arguments) }
        try app.waitFor("4 Statistics")
        _ = try tmux(["send-keys", "4"])
        /// CPU ticks `keys` list moves cost, counted once the app is idle again.
        func costOfKeys() throws -> Int {
            try settle(pid)
            let before = try cpuTicks(pid)
            for _ in 0..<keys / 20 {
                _ = try tmux(["send-keys"] + Array(repeating: ["j", "k"], count: 10).flatMap { $0 })
            }
            try settle(pid)
            return try cpuTicks(pid) - before
        }
        let fresh = try costOfKeys()
        let api = APIClient(APIConfiguration(baseURL: server.baseURL))
        let order = try await api.order()
        for i in 0..<1_000 {
            _ = try await api.updateOrder(nfts: i % 2 == 0 ? Array(order.nfts.dropLast()) : order.nfts, ifVersion: nil)
        }
        try settle(pid)
        let idleBefore = try cpuTicks(pid)
        sleep(10)
        let idle = try cpuTicks(pid) - idleBefore
        let after = try costOfKeys()
        report(
            "\(keys) list keys (Statistics), CPU: fresh / after 1,000 live updates",
            "\(fresh) / \(after) ticks: \(format(Double(after) / Double(max(1, fresh)), 2))× (target ≤ 1.5×)")
        report("idle CPU over 10 s after 1,000 live updates", "\(idle) ticks (target 0)")
        await server.stop()
    }

    /// Typing into a field: the CPU of each 500 characters typed into the profile form's website
    /// field (2,048 at most), the first 500 against the 500 after 1,500, beside the list moves'.
    static func fieldTypingCost(binary: String) async throws {
        let server = try await FakeNFTServer.start(
            ServerConfiguration(port: 0, dataDirectory: ServerBenchmarks.temporaryDirectory()))
        let app = try AppInTmux(binary: binary, server: server.baseURL, name: "field")
        defer { app.close() }
        let pid = app.pid
        func tmux(_ arguments: [String]) throws -> String { try app.tmux(arguments) }
        func waitFor(_ text: String) throws { try app.waitFor(text) }
        try waitFor("4 Statistics")
        _ = try tmux(["send-keys", "3"])
        try waitFor("Edit (e)")
        _ = try tmux(["send-keys", "e"])
        try waitFor("Ctrl-S save")
        _ = try tmux(["send-keys", "Tab", "Tab", "C-u"])  // the website field, emptied
        var costs: [Int] = []
        for _ in 0..<4 {
            try settle(pid)
            let before = try cpuTicks(pid)
            for _ in 0..<25 { _ = try tmux(["send-keys", "-l", String(repeating: "x", count: 20)]) }
            try settle(pid)
            costs.append(try cpuTicks(pid) - before)
        }
        report(
            "field typing, CPU per 500 keys: first / after 1,500",
            "\(costs[0]) / \(costs[3]) ticks (\(costs.map(String.init).joined(separator: ", ")) per 500; "
                + "\(format(Double(costs.reduce(0, +)) * 10 / 2000, 3)) ms a key; target under 0.5 ms at any length)")
        await server.stop()
    }

    /// Waits until `pid` has used no CPU for half a second (at most 20 s).
    private static func settle(_ pid: String) throws {
        var last = try cpuTicks(pid)
        for _ in 0..<40 {
            usleep(500_000)
            let now = try cpuTicks(pid)
            if now == last { return }
            last = now
        }
    }
}

/// The real binary in a tmux server of its own, 100×30, past the welcome, on `server`.
struct AppInTmux {
    let socket: String
    let state: URL
    /// The app's process.
    let pid: String

    init(binary: String, server: URL, name: String) throws {
        let socket = "fakenft-bench-\(name)-\(getpid())",
            state = try stateFolderPastWelcome(server: server.absoluteString)
        func tmux(_ arguments: [String]) throws -> String {
            try spawnAndWait("/usr/bin/tmux", ["-L", socket] + arguments).output
        }
        _ = try tmux([
            "new-session", "-d", "-x", "100", "-y", "30", "env", "TERM=xterm-256color", "SWIFT_BACKTRACE=enable=no",
            "XDG_STATE_HOME=\(state.path)", binary, "--server", server.absoluteString,
        ])
        self.socket = socket
        self.state = state
        pid = try tmux(["list-panes", "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func tmux(_ arguments: [String]) throws -> String {
        try spawnAndWait("/usr/bin/tmux", ["-L", socket] + arguments).output
    }

    /// Waits until the screen shows `text` (at most 15 s).
    func waitFor(_ text: String) throws {
        for _ in 0..<300 where try !tmux(["capture-pane", "-p"]).contains(text) { usleep(50_000) }
    }

    func close() {
        _ = try? spawnAndWait("/usr/bin/tmux", ["-L", socket, "kill-server"])
        try? FileManager.default.removeItem(at: state)
    }
}
