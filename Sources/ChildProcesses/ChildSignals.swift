#if canImport(Glibc)
    import Glibc

    /// What a program started with posix_spawn keeps of this process's signal state: nothing. A
    /// child inherits the spawning thread's blocked signals and the process's ignored ones, and
    /// Swift's worker threads block nearly all: a browser (or a test's tmux shell) started from
    /// one could not be hung up or terminated.
    public enum ChildSignals {
        /// Sets `attributes` to start the child with no signal blocked and every signal at its default.
        public static func reset(_ attributes: inout posix_spawnattr_t) {
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var all = sigset_t()
            sigfillset(&all)
            posix_spawnattr_setsigdefault(&attributes, &all)
            var flags: Int16 = 0
            posix_spawnattr_getflags(&attributes, &flags)
            posix_spawnattr_setflags(&attributes, flags | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        }
    }
#endif
