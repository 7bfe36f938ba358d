import CNCursesW
import Foundation
import Glibc
import Synchronization
import TerminalUI

/// A curses screen on a pseudo-terminal with nobody attached: frames are presented exactly as
/// on a real terminal, and the bytes curses writes can be read back and counted.
/// Used by benchmarks; the app itself always runs on ``TerminalSession``.
@MainActor
public final class HeadlessTerminal {
    public let surface: CursesSurface
    private let master: Int32
    private let screen: OpaquePointer
    private let written = Counter()

    /// Bytes read from the terminal, shared with the thread that reads them.
    private final class Counter: Sendable {
        let bytes = Mutex(0)
        let stopped = Atomic(false)
    }

    public init?(size: Size, terminalType: String = "xterm-256color") {
        if String(cString: cnc_codeset()) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        var master: Int32 = -1, slave: Int32 = -1
        var ws = winsize(ws_row: UInt16(size.height), ws_col: UInt16(size.width), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &ws) == 0 else { return nil }
        guard let output = fdopen(slave, "w"), let input = fdopen(dup(slave), "r"),
            let screen = newterm(terminalType, output, input)
        else { return nil }
        set_term(screen)
        guard let window = cnc_stdscr() else { return nil }
        raw()
        noecho()
        nonl()
        typeahead(-1)
        if has_colors() {
            start_color()
            use_default_colors()
        }
        self.master = master
        self.screen = screen
        surface = CursesSurface(window: window, colors: has_colors() ? .full : .none, output: output)
        let counter = written, terminal = master
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !counter.stopped.load(ordering: .relaxed) {
                var poller = pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) >= 0 else { return }
                guard poller.revents & Int16(POLLIN) != 0 else { continue }
                let n = read(terminal, &buffer, buffer.count)
                if n <= 0 { return }
                counter.bytes.withLock { $0 += n }
            }
        }
    }

    /// The bytes written to the terminal since the last call (once the reader has read them all).
    public func drainOutput() -> Int {
        var pending: Int32 = 1
        while ioctl(master, UInt(FIONREAD), &pending) == 0, pending > 0 { usleep(50) }
        usleep(50)
        return written.bytes.withLock { count in
            defer { count = 0 }
            return count
        }
    }

    public func close() {
        written.stopped.store(true, ordering: .relaxed)
        endwin()
        delscreen(screen)
        usleep(60_000)
        Glibc.close(master)
    }
}
