import Glibc

/// Small wrappers over POSIX calls the terminal layer needs.
enum Syscalls {
    /// A pipe with close-on-exec ends and a non-blocking write end (pipe2 does not import).
    static func makePipe(nonBlockingRead: Bool) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return (-1, -1) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        if nonBlockingRead { _ = fcntl(fds[0], F_SETFL, O_NONBLOCK) }
        return (fds[0], fds[1])
    }

    /// Writes one byte, retrying on EINTR.
    static func poke(_ fd: Int32) {
        var byte: UInt8 = 0
        while write(fd, &byte, 1) < 0 && errno == EINTR {}
    }

    /// poll(2), retrying on EINTR.
    static func poll(_ fds: inout [pollfd], timeoutMS: Int32) -> Int32 {
        while true {
            let rc = Glibc.poll(&fds, nfds_t(fds.count), timeoutMS)
            if rc >= 0 || errno != EINTR { return rc }
        }
    }
}
