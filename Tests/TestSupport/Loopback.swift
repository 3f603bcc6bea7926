#if canImport(Glibc)
    import Glibc
#endif

/// Plain blocking POSIX TCP sockets on 127.0.0.1, for tests that must control every byte
/// and every connection state (a client that sends nothing, a port that refuses, a full
/// accept queue). One copy of the `sockaddr_in` plumbing for all test targets.
public enum Loopback {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A TCP socket connected to 127.0.0.1:`port`; the caller closes it.
    /// - Parameters:
    ///   - receiveTimeoutSeconds: `SO_RCVTIMEO`, so a `recv` cannot block forever.
    ///   - noDelay: `TCP_NODELAY`, so each send leaves as its own segment.
    ///   - nonBlocking: start the connect and return at once (`EINPROGRESS` is no error).
    public static func connect(
        port: UInt16, receiveTimeoutSeconds: Double? = nil, noDelay: Bool = false,
        nonBlocking: Bool = false
    ) throws(Failure) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        if let seconds = receiveTimeoutSeconds {
            var timeout = timeval(
                tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
            setsockopt(
                fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        if noDelay {
            var on: Int32 = 1
            setsockopt(
                fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        var address = address(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let code = errno
        guard result == 0 || (nonBlocking && code == EINPROGRESS) else {
            close(fd)
            throw Failure(description: "connect to \(port): errno \(code)")
        }
        return fd
    }

    /// A socket bound to an ephemeral port on 127.0.0.1: not listening (connects are
    /// refused, and no other server can take the port while it stays open), or listening
    /// with `listenBacklog` and never accepting. The caller closes it.
    public static func bind(listenBacklog: Int32? = nil) throws(Failure) -> (
        descriptor: Int32, port: UInt16
    ) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(fd, pointer, length) == 0
                    && (listenBacklog.map { listen(fd, $0) == 0 } ?? true)
                    && getsockname(fd, pointer, &length) == 0
            }
        }
        guard ok else {
            let code = errno
            close(fd)
            throw Failure(description: "bind: errno \(code)")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Whether the peer of the connected socket `fd` has closed its side (its FIN has
    /// arrived), looked at without reading: `poll` with `POLLRDHUP`, no wait. For a test
    /// waiting for a server's close that the code under test is kept from seeing.
    public static func peerHasClosed(_ fd: Int32) -> Bool {
        // POLLRDHUP (Linux), which glibc declares only with _GNU_SOURCE.
        let peerClosedWriting: Int16 = 0x2000
        var entry = pollfd(fd: fd, events: peerClosedWriting, revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        return entry.revents & (peerClosedWriting | Int16(POLLHUP)) != 0
    }

    /// Whether bytes wait to be read on `fd`, looked at without reading and without
    /// waiting.
    public static func hasBytesToRead(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
    }

    /// Whether the non-blocking connect on `fd` has completed (writable, no error), looked
    /// at without waiting.
    public static func hasConnected(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&entry, 1, 0) == 1, entry.revents & Int16(POLLOUT) != 0 else { return false }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0
    }

    /// Whether everything sent on `fd` has been taken by the peer's kernel (nothing left
    /// in the send queue, `SIOCOUTQ`) or the connection failed (a reset): either way,
    /// what the peer made of those bytes has happened.
    public static func sendsSettled(_ fd: Int32) -> Bool {
        let sendQueueBytes: UInt = 0x5411  // SIOCOUTQ (TIOCOUTQ)
        var unsent: Int32 = 0
        guard ioctl(fd, sendQueueBytes, &unsent) == 0 else { return true }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        return unsent == 0 || error != 0
    }
}
