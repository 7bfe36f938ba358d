import Foundation
import Glibc
import FakeNFTTesting

/// A real terminal with pixels: an X server of its own (Xvfb) running `xterm -ti vt340` (sixel),
/// with the command under `script`, so the test sees both what was written to the terminal and,
/// through screenshots (`xwd`), what the terminal shows. Keys are typed with `xdotool`.
final class XtermHarness {
    let display: String
    let directory: URL
    let columns: Int, rows: Int
    private var processes: [pid_t] = []

    /// Xvfb, xterm, xdotool, xwd: `make test` installs them (scripts/install-deps.sh).
    static let tools = ["/usr/bin/Xvfb", "/usr/bin/xterm", "/usr/bin/xdotool", "/usr/bin/xwd", "/usr/bin/script"]

    init(columns: Int = 100, rows: Int = 30) throws {
        for tool in Self.tools where !FileManager.default.isExecutableFile(atPath: tool) {
            throw E2EError("\(tool) is missing: run `make test`, which installs xvfb, xterm, x11-apps and xdotool")
        }
        self.columns = columns
        self.rows = rows
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "xterm-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var number = 50 + Int.random(in: 0..<200)
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
            || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        {
            number += 1
        }
        display = ":\(number)"
        try start("/usr/bin/Xvfb", [display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"], log: "xvfb.log")
    }

    deinit {
        // `script` outlives xterm; ending it hangs up the app under it.
        _ = try? spawnAndWait("/usr/bin/pkill", ["-KILL", "-f", directory.appendingPathComponent("typescript").path])
        for pid in processes.reversed() {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        if ProcessInfo.processInfo.environment["KEEP_XTERM"] == nil {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Waits for the X server, then starts xterm at the top left running `command` under `script`.
    func launch(_ command: String, environment: [String: String]) async throws {
        _ = await polled(every: .milliseconds(25), within: .seconds(30)) {
            FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display.dropFirst())")
        }
        let env = environment.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let typescript = directory.appendingPathComponent("typescript").path
        try start(
            "/usr/bin/env",
            [
                "DISPLAY=\(display)", "/usr/bin/xterm", "-ti", "vt340", "-xrm", "XTerm*numColorRegisters: 256",
                "-geometry", "\(columns)x\(rows)+0+0", "-e",
                "/usr/bin/script", "-q", "-f", "-c", "env -i PATH=/usr/bin:/bin \(env) \(command)", typescript,
            ], log: "xterm.log")
        // Keys typed with XTEST go to the window under the pointer (no window manager).
        _ = await polled(every: .milliseconds(50), within: .seconds(30)) {
            (try? await x("xdotool", ["search", "--class", "xterm"]))?.isEmpty == false
        }
        _ = try await x("xdotool", ["mousemove", "200", "200"])
    }

    /// Types keys (xdotool names: Return, Escape, question…).
    func keys(_ names: String...) async throws { _ = try await x("xdotool", ["key"] + names) }

    /// What went wrong, for a failure message: the end of the terminal's output and the logs.
    func diagnosis() -> String {
        let tail = String(decoding: output().suffix(400), as: UTF8.self).unicodeScalars.map {
            $0.value < 0x20 ? "·" : String($0)
        }.joined()
        let logs = ["xvfb.log", "xterm.log", "server.log"].map { name in
            "\(name): "
                + ((try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "(none)")
                .suffix(300)
        }
        return (["output: " + tail] + logs).joined(separator: "\n")
    }

    /// Everything written to the terminal so far.
    func output() -> [UInt8] {
        Array((try? Data(contentsOf: directory.appendingPathComponent("typescript"))) ?? Data())
    }

    /// The screen now, as RGBA, saved as `name`.png in the test's folder for a human to look at.
    func screenshot(_ name: String) async throws -> Screenshot {
        let path = directory.appendingPathComponent("\(name).xwd").path
        _ = try await x("xwd", ["-root", "-silent", "-out", path])
        let shot = try Screenshot(xwd: Data(contentsOf: URL(fileURLWithPath: path)))
        try Data(shot.png).write(to: directory.appendingPathComponent("\(name).png"))
        return shot
    }

    private func x(_ tool: String, _ arguments: [String]) async throws -> String {
        let result = try await spawned("/usr/bin/env", ["DISPLAY=\(display)", "/usr/bin/\(tool)"] + arguments)
        return result.output.split(separator: "\n").filter { !$0.contains("XGetInputFocus") }.joined(separator: "\n")
    }

    private func start(_ path: String, _ arguments: [String], log: String) throws {
        let fd = open(directory.appendingPathComponent(log).path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        processes.append(try spawnInBackground(path, arguments, output: fd))
    }
}
