import Foundation
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// An app left open on `fakenft serve`, as each visitor's over SSH is, sleeps: none of its
    /// threads wakes every second (libdispatch's pool, which ran its tasks before, woke the
    /// process each second for as long as it lived).
    @Suite struct IdleEndToEndTests {
        @Test func anIdleAppsThreadsSleep() async throws {
            let host = try await Tmux(width: 80, height: 24), tmux = try await Tmux(width: 80, height: 24)
            let server = try await host.startServer()
            try await tmux.launchApp("--server \(server.absoluteString)")
            let app = try await tmux.childPID()
            try await Task.sleep(for: .seconds(2))  // the usage events' batch sent, the pictures drawn
            // Two windows of 3.5 s: the server's heartbeat (every 15 s) wakes the app in one at most.
            var busiest: [Int] = []
            for _ in 0..<2 {
                let before = Self.wakes(of: app)
                try await Task.sleep(for: .milliseconds(3_500))
                let after = Self.wakes(of: app)
                busiest.append(after.map { thread, count in count - (before[thread] ?? 0) }.max() ?? 0)
            }
            #expect(busiest.min() ?? 0 < 3, "the most one thread woke in each 3.5 s: \(busiest)")
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }

        /// How often each thread of `pid` has gone to sleep (its voluntary context switches), by thread.
        static func wakes(of pid: Int32) -> [String: Int] {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            var wakes: [String: Int] = [:]
            for thread in threads {
                guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8),
                    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
                    let count = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
                else { continue }
                wakes[thread] = count
            }
            return wakes
        }
    }
}
