import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Limits of the server's process.
public enum ProcessLimits {
    /// Raises the soft limit of open files to the hard one, so that many clients (or many idle
    /// connections, until the idle timeout closes them) do not exhaust descriptors at 1,024.
    public static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// How many connections to accept at once: the open-file limit less a reserve for the
    /// database, the log and the listening socket. Past it, new connections wait in the
    /// kernel's queue instead of failing `accept` with EMFILE over and over.
    public static func maxConnections() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_000 }
        return max(16, Int(clamping: min(limit.rlim_cur, 1 << 20)) - 64)  // RLIM_INFINITY is UInt64.max
    }
}
