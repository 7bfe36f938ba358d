import Glibc

/// Asks the controlling terminal (`/dev/tty`) what it can do, before curses starts: one write of
/// ``TerminalGraphics/queries(inTmux:)`` in raw mode, then reading until the DA1 answers (the
/// end marker) or the time limit. The replies are read here, so none reaches key input.
public enum TerminalProbe {
    /// The longest a terminal that answers nothing delays the start.
    public static let timeLimit = 250

    /// Detects what to show pictures with; asks the terminal only when it must (`auto`, stdin and
    /// stdout a terminal).
    public static func detect(choice: ImagesChoice, environment: [String: String]) -> TerminalGraphics {
        var replies: TerminalReplies?
        let term = environment["TERM"] ?? ""
        var size: (cells: Size, pixels: Size)?
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        if tty >= 0 {
            defer { close(tty) }
            size = windowSize(fd: tty)
            if choice == .auto, !term.isEmpty, term != "dumb", term != "linux" {
                let (text, count) = TerminalGraphics.queries(inTmux: !(environment["TMUX"] ?? "").isEmpty)
                replies = TerminalReplies(parsing: ask(text, expectingDeviceAttributes: count, tty: tty))
            }
        }
        return TerminalGraphics.decide(choice: choice, environment: environment, replies: replies, windowSize: size)
    }

    /// The terminal's size in cells and pixels (pixels 0 when it does not say).
    static func windowSize(fd: Int32) -> (cells: Size, pixels: Size)? {
        var ws = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0 else { return nil }
        return (Size(width: Int(ws.ws_col), height: Int(ws.ws_row)), Size(width: Int(ws.ws_xpixel), height: Int(ws.ws_ypixel)))
    }

    /// Writes `queries` and returns what came back, at most ``timeLimit`` ms later.
    static func ask(_ queries: String, expectingDeviceAttributes count: Int, tty: Int32) -> [UInt8] {
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { return [] }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in cc[Int(VMIN)] = 0; cc[Int(VTIME)] = 0 }
        guard tcsetattr(tty, TCSANOW, &raw) == 0 else { return [] }
        defer { tcsetattr(tty, TCSANOW, &saved) }
        let written = Array(queries.utf8).withUnsafeBytes { write(tty, $0.baseAddress, $0.count) }
        guard written > 0 else { return [] }
        var bytes: [UInt8] = []
        let deadline = now() + Double(timeLimit) / 1000
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let left = deadline - now()
            guard left > 0 else { break }
            var poller = pollfd(fd: tty, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { break }
            let n = read(tty, &chunk, chunk.count)
            guard n > 0 else { break }
            bytes += chunk[0..<n]
            if TerminalReplies(parsing: bytes).isComplete(expectingDeviceAttributes: count) { return bytes }
        }
        // Some answers did not come: drop anything half-arrived so it never reads as keys.
        tcflush(tty, TCIFLUSH)
        return bytes
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
