import FakeNFTCore
import FakeNFTApp
import Foundation
import TerminalUI
import FakeNFTTesting

/// A plain list screen over `count` rows, as the benchmark's stand-in for a long list.
@MainActor
final class LongListScreen: Screen {
    let title = "Long list"
    let usage = UsageEvent.Screen.catalog
    let tasks = TaskBag()
    let count: Int
    var list = ListState()
    init(count: Int) { self.count = count }
    var layers: [KeyLayer] {
        [.selection(list, area: "list", title: title, count: { [count] in count }) { [unowned self] in list = $0 }]
    }

    func render(in rect: Rect, buffer: inout Buffer) {
        // As the app's lists: a marker and the highlighted text, not the whole width.
        let view = ListView(area: "list", count: count, state: list) { index, row, selected, buffer in
            buffer.draw(selected ? "▌" : " ", at: Point(x: row.x, y: row.y), style: .accent, maxWidth: 1)
            let text =
                "#\(index + 1)  NFT number \(index)  ★★★☆☆  " + String(format: "%.2f ETH", Double(index % 1000) / 100)
            buffer.draw(
                text, at: Point(x: row.x + 2, y: row.y), style: selected ? .selected : .plain, maxWidth: row.width - 2)
        }
        buffer.render(view, in: rect)
    }
}

@MainActor
enum TerminalBenchmarks {
    /// Key press to frame on a 100,000-row list, and bytes written per cursor move.
    static func keyToFrame() {
        guard let terminal = HeadlessTerminal(size: Size(width: 160, height: 46)) else {
            report("key to frame", "skipped: no pseudo-terminal")
            return
        }
        defer { terminal.close() }
        let shell = AppShell(
            tabs: [AppShell.Tab(title: "List", root: LongListScreen(count: 100_000))], effects: .toastsOnly(),
            pictures: .placeholders())
        let presenter = FramePresenter(surface: terminal.surface)
        presenter.present(size: Size(width: 160, height: 46)) { frame in
            shell.draw(into: &frame)
            shell.shown(frame)
        }
        _ = terminal.drainOutput()
        var times = Samples(), bytes = Samples()
        let clock = ContinuousClock()
        for i in 0..<3_000 {
            let key: Key = (i / 1_000) % 2 == 0 ? .down : .up  // scrolls past the screen's edge both ways
            let start = clock.now
            _ = shell.handle(.key(key))
            presenter.present(size: Size(width: 160, height: 46)) { frame in
                shell.draw(into: &frame)
                shell.shown(frame)
            }
            times.add(milliseconds(clock.now - start))
            bytes.add(Double(terminal.drainOutput()))
        }
        report("key to frame, 100,000-row list, 160×46 (median)", "\(format(times.median)) ms")
        report("key to frame, 100,000-row list, 160×46 (p99)", "\(format(times.percentile(0.99))) ms")
        report("bytes written per cursor move (median)", "\(Int(bytes.median)) B")
        report("bytes written per cursor move (p99, list scrolls)", "\(Int(bytes.percentile(0.99))) B")
    }

    /// CPU time the real binary uses over 10 s of idling in tmux.
    static func idleCPU(binary: String) throws {
        let socket = "fakenft-bench-\(getpid())"
        let data = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        defer {
            _ = try? spawnAndWait("/usr/bin/tmux", ["-L", socket, "kill-server"])
            try? FileManager.default.removeItem(at: data)
        }
        let state = try stateFolderPastWelcome(server: "embedded:" + data.standardizedFileURL.path)
        defer { try? FileManager.default.removeItem(at: state) }
        _ = try spawnAndWait(
            "/usr/bin/tmux",
            [
                "-L", socket, "new-session", "-d", "-x", "100", "-y", "30",
                "env", "TERM=xterm-256color", "XDG_STATE_HOME=\(state.path)", binary, "--data", data.path,
            ])
        var pid = ""
        var screen = ""
        for _ in 0..<300 where !screen.contains("4 Statistics") {
            usleep(50_000)
            pid = try spawnAndWait("/usr/bin/tmux", ["-L", socket, "list-panes", "-F", "#{pane_pid}"]).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
            screen = try spawnAndWait("/usr/bin/tmux", ["-L", socket, "capture-pane", "-p"]).output
        }
        guard screen.contains("4 Statistics") else {
            report("idle CPU over 10 s", "skipped: app did not start")
            return
        }
        sleep(1)
        let before = try cpuTicks(pid)
        sleep(10)
        let after = try cpuTicks(pid)
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        report(
            "idle CPU time over 10 s (real binary in tmux)",
            "\(format(Double(after - before) / hz * 1000, 0)) ms (\(after - before) ticks)")
    }

    /// Laying out a 3 MB description without spaces: the four lines the Profile shows, and all of it.
    static func wrapHugeText() {
        let huge = String(repeating: "x", count: 3_000_000)
        for (label, maxLines) in [("first 4 lines", 4), ("all 75,000 lines", Int.max)] {
            let start = ContinuousClock.now
            let lines = DisplayWidth.wrap(huge, width: 40, maxLines: maxLines)
            precondition(!lines.isEmpty)
            report(
                "wrap a 3 MB word at 40 columns, \(label)", "\(format(milliseconds(ContinuousClock.now - start), 3)) ms"
            )
        }
    }
}
