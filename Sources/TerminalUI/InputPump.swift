import Foundation  // Thread only
import Glibc

/// Waits with poll(2) on a dedicated thread and never touches curses.
///
/// It reports "input is ready" or "a signal arrived"; the main actor then reads curses input
/// and acknowledges, because stdin is level-triggered. While idle the thread sleeps in poll.
final class InputPump: Sendable {
    enum Wake: Sendable { case input, signal(Int32), hangup }
    let wakes: AsyncStream<Wake>
    private let ackWrite: Int32
    private let stopWrite: Int32

    init(inputFD: Int32, signalFD: Int32) {
        let (stream, continuation) = AsyncStream.makeStream(of: Wake.self, bufferingPolicy: .unbounded)
        wakes = stream
        let ack = Syscalls.makePipe(nonBlockingRead: true)
        let stop = Syscalls.makePipe(nonBlockingRead: false)
        ackWrite = ack.write
        stopWrite = stop.write
        let thread = Thread {
            Self.run(inputFD: inputFD, signalFD: signalFD, ackFD: ack.read, stopFD: stop.read, continuation)
        }
        thread.name = "tui-input"
        thread.start()
    }

    /// The main actor has drained curses input.
    func acknowledge() { Syscalls.poke(ackWrite) }
    func stop() { Syscalls.poke(stopWrite) }

    private static func run(
        inputFD: Int32, signalFD: Int32, ackFD: Int32, stopFD: Int32,
        _ continuation: AsyncStream<Wake>.Continuation
    ) {
        var awaitingAck = false
        var buffer = [UInt8](repeating: 0, count: 64)
        loop: while true {
            var fds = [
                pollfd(fd: awaitingAck ? ackFD : inputFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0),
            ]
            if Syscalls.poll(&fds, timeoutMS: -1) < 0 { break }
            if fds[2].revents != 0 { break loop }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let n = read(signalFD, &buffer, buffer.count)
                for i in 0..<max(n, 0) { continuation.yield(.signal(Int32(buffer[i]))) }
            }
            guard fds[0].revents != 0 else { continue }
            if awaitingAck {
                _ = read(ackFD, &buffer, buffer.count)
                awaitingAck = false
            } else if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                continuation.yield(.hangup)  // the terminal is gone
                break loop
            } else {
                continuation.yield(.input)
                awaitingAck = true
            }
        }
        continuation.finish()
    }
}
