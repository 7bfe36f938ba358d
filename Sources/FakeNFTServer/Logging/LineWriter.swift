import Foundation
#if canImport(Glibc)
import Glibc
#endif
import NIOConcurrencyHelpers

/// Writes lines to a file descriptor from a thread of its own, so that a slow, full or closed
/// stdout, stderr or log file never blocks or crashes whoever logs: when more than `capacity`
/// lines are waiting, new ones are dropped, and a failed write is given up silently.
public final class LineWriter: @unchecked Sendable {
    /// The process's standard output and error.
    public static let standardOutput = LineWriter(fileDescriptor: STDOUT_FILENO)
    public static let standardError = LineWriter(fileDescriptor: STDERR_FILENO)

    private static let capacity = 10_000
    private let fileDescriptor: Int32
    /// Its value is 1 while lines are waiting. Guards `pending`.
    private let lock = ConditionLock(value: 0)
    private var pending: [String] = []

    private static let files = NIOLockedValueBox<[String: LineWriter]>([:])

    /// The writer appending to the file at `path` (created if missing), one per path for the
    /// life of the process; nil when the file cannot be opened.
    public static func appending(to path: String) -> LineWriter? {
        files.withLockedValue { files in
            if let writer = files[path] { return writer }
            let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return nil }
            let writer = LineWriter(fileDescriptor: descriptor)
            files[path] = writer
            return writer
        }
    }

    private init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        let thread = Thread { self.run() }   // runs, and keeps the writer, for the life of the process
        thread.name = "fakenft-line-writer"
        thread.start()
    }

    /// Queues `line` (a newline is added).
    public func write(_ line: String) {
        lock.lock()
        if pending.count < Self.capacity { pending.append(line) }
        lock.unlock(withValue: 1)
    }

    private func run() {
        while true {
            lock.lock(whenValue: 1)
            let lines = pending
            pending = []
            lock.unlock(withValue: 0)
            for line in lines { Self.writeAll(fileDescriptor, Array((line + "\n").utf8)) }
        }
    }

    /// Writes every byte, retrying partial writes and EINTR; stops at the first other error.
    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { return }
        }
    }
}
