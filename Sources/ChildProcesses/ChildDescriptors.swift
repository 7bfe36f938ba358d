#if canImport(Glibc)
    import Glibc

    /// What a program started with posix_spawn keeps of this process's descriptors: nothing past
    /// stdin, stdout and stderr. A child that outlives the request that started it (a browser, a
    /// daemon) would otherwise hold this process's sockets and files open: a port stays taken,
    /// and a connection the server closed is not closed.
    public enum ChildDescriptors {
        private typealias AddCloseFrom =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) ->
            Int32

        /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run
        /// time: Swift's Glibc module does not declare it.
        private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
            unsafeBitCast($0, to: AddCloseFrom.self)
        }

        /// Makes `actions` close every descriptor from `first` up in the child (after the actions
        /// added before it, so descriptors duplicated below `first` stay).
        public static func closeInherited(_ actions: inout posix_spawn_file_actions_t, from first: Int32 = 3) {
            if let addCloseFrom {
                _ = addCloseFrom(&actions, first)
            } else {
                for descriptor: Int32 in first..<256 { posix_spawn_file_actions_addclose(&actions, descriptor) }
            }
        }
    }
#endif
