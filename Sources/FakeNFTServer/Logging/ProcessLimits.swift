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
}
