import Foundation  // Thread only
import Glibc

/// Waits with poll(2) on a dedicated thread and never touches curses.
///
/// It reports "input is ready" or "a signal arrived"; the main actor then reads the input
/// (``TerminalReader``) and acknowledges, because stdin is level-triggered. While idle the thread sleeps in poll.
///
/// An ending signal or a hang-up is the main actor's to act on, but it may be busy: if the
/// session has not stopped the pump within ``endingDeadline``, this thread restores the terminal
/// itself and ends the process (128 + the signal, as the shell reports a death by it).
final class InputPump: Sendable {
    enum Wake: Sendable { case input, signal(Int32), hangup }
    /// How long the main actor has to end the session after an ending signal or a hang-up.
    static let endingDeadline: Int32 = 1_000  // ms
    let wakes: AsyncStream<Wake>
    private let ackWrite: Int32
    private let stopWrite: Int32

    /// - Parameter ending: the signals that end the session.
    init(inputFD: Int32, signalFD: Int32, ending: Set<Int32>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Wake.self, bufferingPolicy: .unbounded)
        wakes = stream
        let ack = Syscalls.makePipe(nonBlockingRead: true)
        let stop = Syscalls.makePipe(nonBlockingRead: false)
        ackWrite = ack.write
        stopWrite = stop.write
        let thread = Thread {
            Self.run(
                inputFD: inputFD, signalFD: signalFD, ackFD: ack.read, stopFD: stop.read, ending: ending, continuation)
        }
        thread.name = "tui-input"
        thread.start()
    }

    /// The main actor has drained the input.
    func acknowledge() { Syscalls.poke(ackWrite) }
    func stop() { Syscalls.poke(stopWrite) }

    private static func run(
        inputFD: Int32, signalFD: Int32, ackFD: Int32, stopFD: Int32, ending: Set<Int32>,
        _ continuation: AsyncStream<Wake>.Continuation
    ) {
        var awaitingAck = false
        var buffer = [UInt8](repeating: 0, count: 64)
        /// The signal that ends the session (SIGHUP for a hang-up), once one came.
        var ended: Int32?
        defer { if let ended { endUnlessStopped(signal: ended, stopFD: stopFD) } }
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
                if let signal = buffer.prefix(max(n, 0)).lazy.map(Int32.init).first(where: ending.contains) {
                    ended = signal
                    break loop
                }
            }
            guard fds[0].revents != 0 else { continue }
            if awaitingAck {
                _ = read(ackFD, &buffer, buffer.count)
                awaitingAck = false
            } else if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                continuation.yield(.hangup)  // the terminal is gone
                ended = SIGHUP
                break loop
            } else {
                continuation.yield(.input)
                awaitingAck = true
            }
        }
        continuation.finish()
    }

    /// Waits for the session to stop the pump; past ``endingDeadline`` restores the terminal and
    /// ends the process, whatever the main actor is doing.
    private static func endUnlessStopped(signal: Int32, stopFD: Int32) {
        var stop = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = Syscalls.poll(&stop, timeoutMS: endingDeadline)
            if ready > 0 { return }  // the session ended in time
            if ready == 0 { break }
        }
        CrashGuard.restoreTerminal()
        _exit(128 + signal)
    }
}
