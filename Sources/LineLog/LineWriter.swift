import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
    import Glibc
#endif

/// Writes lines to stdout, stderr or a file without ever making the writer wait: lines are
/// queued and written by one thread of the process's own, so a slow, full or closed output never
/// blocks or crashes the server. When more than 10,000 lines are waiting, new ones are dropped;
/// a failed write is given up silently. A file is opened only while its lines are written.
public struct LineWriter: Sendable {
    /// The process's standard output and error.
    public static let standardOutput = LineWriter(destination: .descriptor(STDOUT_FILENO))
    public static let standardError = LineWriter(destination: .descriptor(STDERR_FILENO))

    /// Appends to the file at `path`, created when missing. With `rotateAt`, a file that has
    /// grown past that many bytes is renamed `<path>.1` (replacing the last one) and started anew.
    public static func appending(to path: String, rotateAt: Int? = nil) -> LineWriter {
        LineWriter(destination: .file(path, rotateAt: rotateAt))
    }

    enum Destination: Hashable, Sendable {
        case descriptor(Int32)
        case file(String, rotateAt: Int?)
    }

    private let destination: Destination

    /// Queues `line` (a newline is added).
    public func write(_ line: String) { LineQueue.shared.enqueue(line, to: destination) }

    /// Waits (at most `timeout` seconds) until every line queued so far is written: call it
    /// before the process exits, or its last lines are lost.
    public static func flush(timeout: Double = 1) { LineQueue.shared.flush(timeout: timeout) }
}

/// The queue behind every ``LineWriter`` and the thread that empties it.
private final class LineQueue: @unchecked Sendable {
    static let shared = LineQueue()
    private static let capacity = 10_000
    /// Its value is 1 while lines are waiting. Guards `pending`.
    private let lock = ConditionLock(value: 0)
    private var pending: [(LineWriter.Destination, String)] = []
    /// Lines queued and lines written (or dropped by a failed write) so far; guarded by `lock`.
    private var queued = 0, finished = 0

    private init() {
        let thread = Thread { self.run() }  // runs for the life of the process
        thread.name = "fakenft-line-writer"
        thread.start()
    }

    func enqueue(_ line: String, to destination: LineWriter.Destination) {
        lock.lock()
        if pending.count < Self.capacity {
            pending.append((destination, line))
            queued += 1
        }
        lock.unlock(withValue: 1)
    }

    func flush(timeout: Double) {
        lock.lock()
        let target = queued
        lock.unlock()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            lock.lock()
            let done = finished >= target
            lock.unlock()
            if done { return }
            usleep(1_000)
        }
    }

    private func run() {
        while true {
            lock.lock(whenValue: 1)
            let lines = pending
            pending = []
            lock.unlock(withValue: 0)
            var files: [String: Int32] = [:]
            for (destination, line) in lines {
                switch destination {
                case .descriptor(let descriptor): Self.writeAll(descriptor, line)
                case .file(let path, let rotateAt):
                    if files[path] == nil {
                        if let rotateAt { Self.rotate(path, past: rotateAt) }
                        files[path] = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
                    }
                    if let descriptor = files[path], descriptor >= 0 { Self.writeAll(descriptor, line) }
                }
            }
            for descriptor in files.values where descriptor >= 0 { close(descriptor) }
            lock.lock()
            finished += lines.count
            lock.unlock(withValue: pending.isEmpty ? 0 : 1)
        }
    }

    /// Moves `path` to `path.1` when it is larger than `limit` bytes.
    private static func rotate(_ path: String, past limit: Int) {
        var info = stat()
        guard stat(path, &info) == 0, Int(info.st_size) > limit else { return }
        _ = rename(path, path + ".1")
    }

    /// Writes the line and a newline, retrying partial writes and EINTR; stops at any other error.
    private static func writeAll(_ descriptor: Int32, _ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { return }
        }
    }
}
