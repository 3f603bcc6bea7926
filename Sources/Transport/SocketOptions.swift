#if canImport(Glibc)
    import Glibc
#endif

/// The few socket options this layer sets, each for one stated reason.
enum SocketOptions {
    /// Responses leave in one `send`; Nagle would hold a small one back waiting for an
    /// ACK that delayed-ACK on the peer postpones (~40 ms per request).
    static func enableNoDelay(_ fd: Int32) {
        setFlag(fd, level: Int32(IPPROTO_TCP), option: TCP_NODELAY)
    }

    /// Lets a restarted server bind while old connections sit in TIME_WAIT.
    static func enableReuseAddress(_ fd: Int32) {
        setFlag(fd, level: SOL_SOCKET, option: SO_REUSEADDR)
    }

    /// The pending error of a non-blocking connect (0 when it succeeded).
    static func pendingError(_ fd: Int32) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return errno }
        return value
    }

    private static func setFlag(_ fd: Int32, level: Int32, option: Int32) {
        var on: Int32 = 1
        // Failure only loses an optimisation; the socket still works.
        _ = setsockopt(fd, level, option, &on, socklen_t(MemoryLayout<Int32>.size))
    }
}
