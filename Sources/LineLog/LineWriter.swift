import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
    import Glibc
#endif

/// Writes lines to stdout, stderr or a file without ever making the writer wait: lines are
/// queued (``LineQueue``) and written by the queue's own thread, so a slow, full or closed output
/// never blocks or crashes the server. When more than 10,000 lines are waiting, new ones are
/// dropped; a failed write is given up silently. A file is opened only while its lines are written.
public struct LineWriter: Sendable {
    /// The process's standard output and error.
    public static let standardOutput = LineQueue.process.standardOutput
    public static let standardError = LineQueue.process.standardError

    /// Appends to the file at `path`, created when missing, through the process's queue (see
    /// ``LineQueue/appending(to:rotateAt:)``).
    public static func appending(to path: String, rotateAt: Int? = nil) -> LineWriter {
        LineQueue.process.appending(to: path, rotateAt: rotateAt)
    }

    enum Destination: Hashable, Sendable {
        case descriptor(Int32)
        case file(String, rotateAt: Int?)
    }

    let queue: LineQueue
    let destination: Destination

    /// Queues `line` (a newline is added).
    public func write(_ line: String) { queue.enqueue(line, to: destination) }

    /// Waits (at most `timeout` seconds) until every line queued so far on the process's queue is
    /// written: call it before the process exits, or its last lines are lost.
    public static func flush(timeout: Double = 1) { LineQueue.process.flush(timeout: timeout) }
}

/// Lines waiting to be written and the thread that writes them: the process's own
/// (``process``: its standard output and error, the app's log), or one a server owns from its
/// start until it has stopped (``close(within:)``).
public final class LineQueue: @unchecked Sendable {
    /// The process's queue, for the life of the process.
    public static let process = LineQueue()
    private static let capacity = 10_000
    /// Its value is 1 while lines are waiting or the queue is closing. Guards the rest.
    private let lock = ConditionLock(value: 0)
    private var pending: [(LineWriter.Destination, String)] = []
    /// Lines queued and lines written (or dropped by a failed write) so far.
    private var queued = 0, finished = 0
    private var closing = false, ended = false

    /// A queue and its thread, running until ``close(within:)``.
    public init() {
        let thread = Thread { self.run() }
        thread.name = "fakenft-line-writer"
        thread.start()
    }

    public var standardOutput: LineWriter { LineWriter(queue: self, destination: .descriptor(STDOUT_FILENO)) }
    public var standardError: LineWriter { LineWriter(queue: self, destination: .descriptor(STDERR_FILENO)) }

    /// Appends to the file at `path`, created when missing. With `rotateAt`, a file that has
    /// grown past that many bytes is renamed `<path>.1` (replacing the last one) and started anew.
    public func appending(to path: String, rotateAt: Int? = nil) -> LineWriter {
        LineWriter(queue: self, destination: .file(path, rotateAt: rotateAt))
    }

    /// Whether its thread has ended (after ``close(within:)``).
    public var hasEnded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return ended
    }

    func enqueue(_ line: String, to destination: LineWriter.Destination) {
        lock.lock()
        if pending.count < Self.capacity, !closing {
            pending.append((destination, line))
            queued += 1
        }
        lock.unlock(withValue: 1)
    }

    func flush(timeout: Double) {
        let deadline = Date().addingTimeInterval(timeout)
        while !isWritten(through: currentTarget()), Date() < deadline { usleep(1_000) }
    }

    /// Writes what was queued before it and ends the thread (waiting for that at most `bound`):
    /// lines queued after are dropped. An output that does not take them within `bound` (a pipe
    /// nobody reads) keeps the thread until it does.
    public func close(within bound: Duration = .seconds(1)) async {
        let deadline = ContinuousClock.now + bound
        lock.lock()
        closing = true
        lock.unlock(withValue: 1)
        while !hasEnded, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
    }

    private func currentTarget() -> Int {
        lock.lock()
        defer { lock.unlock() }
        return queued
    }

    private func isWritten(through target: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished >= target
    }

    private func run() {
        while true {
            lock.lock(whenValue: 1)
            let lines = pending
            pending = []
            if lines.isEmpty, closing {
                ended = true
                return lock.unlock(withValue: 0)
            }
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
            for descriptor in files.values where descriptor >= 0 { Glibc.close(descriptor) }
            lock.lock()
            finished += lines.count
            lock.unlock(withValue: pending.isEmpty && !closing ? 0 : 1)
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
