import CNCursesW
import Glibc

/// A curses screen on a pseudo-terminal with nobody attached: frames are presented exactly as
/// on a real terminal, and the bytes curses writes can be read back and counted.
/// Used by benchmarks; the app itself always runs on ``TerminalSession``.
@MainActor
public final class HeadlessTerminal {
    public let surface: CursesSurface
    private let master: Int32
    private let screen: OpaquePointer

    public init?(size: Size, terminalType: String = "xterm-256color") {
        if String(cString: cnc_codeset()) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        var master: Int32 = -1, slave: Int32 = -1
        var ws = winsize(ws_row: UInt16(size.height), ws_col: UInt16(size.width), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &ws) == 0 else { return nil }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        guard let output = fdopen(slave, "w"), let input = fdopen(dup(slave), "r"),
              let screen = newterm(terminalType, output, input) else { return nil }
        set_term(screen)
        guard let window = cnc_stdscr() else { return nil }
        raw(); noecho(); nonl(); keypad(window, true)
        if has_colors() { start_color(); use_default_colors() }
        self.master = master
        self.screen = screen
        surface = CursesSurface(window: window, colors: has_colors() ? .full : .none)
    }

    /// Reads and discards what curses wrote since the last call; returns the byte count.
    public func drainOutput() -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { return total }
            total += n
        }
    }

    public func close() {
        endwin()
        delscreen(screen)
        Glibc.close(master)
    }
}
