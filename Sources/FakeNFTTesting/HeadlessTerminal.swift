import CNCursesW
import Foundation
import Glibc
import Synchronization
import TerminalUI

/// A terminal session on a pseudo-terminal with nobody attached: frames are presented exactly as
/// on a real terminal, and the bytes written can be read back.
/// Used by benchmarks; the app itself always runs on ``TerminalSession``.
@MainActor
public final class HeadlessTerminal {
    public let surface: TerminalSurface
    private let master: Int32
    private let screen: OpaquePointer
    private let output: UnsafeMutablePointer<FILE>
    private let written = Counter()

    /// Bytes read from the terminal, shared with the thread that reads them.
    private final class Counter: Sendable {
        let bytes = Mutex<[UInt8]>([])
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
        self.output = output
        surface = TerminalSurface(window: window, colors: has_colors() ? .full : .none, output: output)
        let counter = written, terminal = master
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !counter.stopped.load(ordering: .relaxed) {
                var poller = pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) >= 0 else { return }
                guard poller.revents & Int16(POLLIN) != 0 else { continue }
                let n = read(terminal, &buffer, buffer.count)
                if n <= 0 { return }
                if let f = fopen("/tmp/move.bin", "a") {
                    fwrite(buffer, 1, n, f)
                    fclose(f)
                }
                counter.bytes.withLock { $0.append(contentsOf: buffer[..<n]) }
            }
        }
    }

    /// How many bytes were written to the terminal since the last drain.
    public func drainOutput() -> Int { drainBytes().count }

    /// The bytes written to the terminal since the last drain: a marker is written after them,
    /// and they are all read once the marker is (within 10 s).
    public func drainBytes() -> [UInt8] {
        let marker = Array("\u{1B}]fakenft-drained\u{7}".utf8)
        _ = marker.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, output) }
        fflush(output)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let drained = written.bytes.withLock { bytes -> [UInt8]? in
                guard bytes.count >= marker.count, bytes.suffix(marker.count).elementsEqual(marker) else { return nil }
                defer { bytes = [] }
                return Array(bytes.dropLast(marker.count))
            }
            if let drained { return drained }
            usleep(20)
        }
        return written.bytes.withLock { bytes in
            defer { bytes = [] }
            return bytes
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
