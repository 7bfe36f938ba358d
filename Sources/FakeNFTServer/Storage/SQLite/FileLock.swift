#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive lock on a file, across processes (flock(2)): held until ``release()``, or until
/// the process ends, however it ends.
final class FileLock {
    private var descriptor: Int32

    /// Waits for the lock on `path` (made if missing).
    init(path: String) throws(StoreError) {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreError.damaged("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw StoreError.damaged("cannot lock \(path): \(reason)")
            }
        }
    }

    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)  // releases the lock
        descriptor = -1
    }

    deinit { release() }
}
