import Glibc

/// Asks the controlling terminal (`/dev/tty`) what it can do, before curses starts: one write of
/// ``queries(inTmux:)`` in raw mode, then reading until the DA1 answers (the end marker) or the
/// time limit. The replies are read here, so none reaches key input.
public enum TerminalProbe {
    /// The longest a terminal that answers nothing delays the start.
    public static let timeLimit = 250

    /// What was learnt: the replies (nil when the terminal was not asked) and the window's size
    /// in cells and pixels.
    public struct Facts: Sendable {
        public var replies: TerminalReplies?
        public var windowSize: (cells: Size, pixels: Size)?
    }

    /// Reads the window's size and, when `asking`, the terminal's replies (never for `TERM`
    /// dumb or linux, or without a controlling terminal).
    public static func run(environment: [String: String], asking: Bool) -> Facts {
        var facts = Facts()
        let term = environment["TERM"] ?? ""
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { return facts }
        defer { close(tty) }
        facts.windowSize = windowSize(fd: tty)
        if asking, !term.isEmpty, term != "dumb", term != "linux" {
            let (text, count) = queries(inTmux: !(environment["TMUX"] ?? "").isEmpty)
            facts.replies = TerminalReplies(parsing: ask(text, expectingDeviceAttributes: count, tty: tty))
        }
        return facts
    }

    /// The queries: XTVERSION, the kitty graphics query, the cell and window sizes in pixels,
    /// the kitty keyboard protocol's flags, whether output can be synchronized (DECRQM of mode
    /// 2026), the colour scheme (`CSI ? 996 n`) and the background colour (OSC 11) for the theme,
    /// and DA1 last (every terminal answers it, so it ends the replies). Inside tmux the picture
    /// queries also go through passthrough to the terminal tmux runs in (tmux answers the rest
    /// itself), so two DA1 answers end the replies.
    public static func queries(inTmux: Bool) -> (text: String, deviceAttributes: Int) {
        let pictures =
            "\u{1B}[>0q" + "\u{1B}_Gi=\(TerminalReplies.kittyQueryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\" + "\u{1B}[16t"
            + "\u{1B}[14t"
        let modes = "\u{1B}[?u\u{1B}[?2026$p\u{1B}[?996n", attributes = "\u{1B}[c"
        guard inTmux else { return (pictures + modes + backgroundQuery + attributes, 1) }
        return ("\u{1B}[>0q" + Passthrough.tmux(pictures + attributes) + modes + backgroundQuery + attributes, 2)
    }

    /// The background colour's query (OSC 11).
    public static let backgroundQuery = "\u{1B}]11;?\u{1B}\\"

    /// The background colour asked again (a terminal that reports no colour scheme may have
    /// changed it while the app was not in focus), ended by DA1: one DA1 answer ends its replies.
    public static func backgroundAgain() -> (text: String, deviceAttributes: Int) {
        (backgroundQuery + "\u{1B}[c", 1)
    }

    /// The controlling terminal's size in cells and pixels, read at once (nil without one).
    public static func windowSize() -> (cells: Size, pixels: Size)? {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        return windowSize(fd: tty)
    }

    /// The terminal's size in cells and pixels (pixels 0 when it does not say).
    static func windowSize(fd: Int32) -> (cells: Size, pixels: Size)? {
        var ws = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0 else { return nil }
        return (
            Size(width: Int(ws.ws_col), height: Int(ws.ws_row)),
            Size(width: Int(ws.ws_xpixel), height: Int(ws.ws_ypixel))
        )
    }

    /// Writes `queries` and returns what came back, at most ``timeLimit`` ms later.
    static func ask(_ queries: String, expectingDeviceAttributes count: Int, tty: Int32) -> [UInt8] {
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { return [] }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
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
