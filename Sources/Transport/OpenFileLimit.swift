#if canImport(Glibc)
    import Glibc
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`), and the connection cap that leaves
/// room under it: client connections must never take the descriptors that upstream
/// sockets, log output, the admin port and Dispatch itself need, or every provider call
/// fails while the listener is full.
package enum OpenFileLimit {
    /// The soft limit now.
    package static var current: Int {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit to the hard limit (a start-up step: containers and systemd
    /// often start services with a soft limit of 1024 under a hard limit of 2^20).
    /// - Returns: the soft limit afterwards.
    @discardableResult
    package static func raiseSoftLimitToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return current }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(RLIMIT_NOFILE_VALUE, &limit)
        }
        return current
    }

    /// Descriptors kept free of client connections under `openFiles`: a quarter of the
    /// limit, and at least 128 (or half, under a tiny limit).
    package static func reserve(openFiles: Int) -> Int {
        max(openFiles / 4, min(openFiles / 2, 128))
    }

    /// `configured` clamped below `openFiles` minus the reserve, at least 1.
    package static func connectionCap(configured: Int, openFiles: Int) -> Int {
        max(1, min(configured, openFiles - reserve(openFiles: openFiles)))
    }

    /// Whether a failed call ran out of descriptors or kernel memory (not a refused or
    /// unreachable peer).
    package static func isExhaustion(_ errno: Int32) -> Bool {
        errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM
    }

    #if os(Linux)
        private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
    #endif
}
