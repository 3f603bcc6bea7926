import CPosix
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// A listening TCP socket whose accepted connections are handed round-robin to the loops
/// of a group.
///
/// One listener (not an `SO_REUSEPORT` socket per loop): with reuseport the kernel hashes
/// each connection to one socket's backlog, so a busy loop's queue waits while another
/// loop idles, and closing one socket at shutdown drops the connections already queued
/// on it. The cost of one listener is one queue hop per CONNECTION (not per request),
/// which keep-alive amortises.
///
/// Accepting runs on the listener's own serial queue, in bursts of `acceptBurst`, with
/// `accept4(SOCK_NONBLOCK|SOCK_CLOEXEC)`. At the connection cap, or on EMFILE/ENFILE,
/// the accept source is suspended and resumed by a timer after `retryDelaySeconds`:
/// pending connections wait in the backlog, and the process never spins on them.
///
/// `@unchecked Sendable` is sound: `fd`, `source`, `queue` and the settings are `let`;
/// `openConnections` is thread-safe; `paused`, `stopped` and `acceptHandler` are touched only
/// on `queue` (every method hops there).
package final class Listener: @unchecked Sendable {
    /// The bound address, with the real port when port 0 was asked for.
    package let localAddress: SocketAddress
    package let maxConnections: Int
    private let acceptBurst: Int
    private let retryDelaySeconds: Double
    private let group: EventLoopGroup
    private let fd: Int32
    private let queue: DispatchQueue
    private let source: any DispatchSourceRead
    private let openConnections: ConnectionCounter
    private var paused = false
    private var stopped = false
    private var acceptHandler: (@Sendable (SocketChannel) -> Void)?
    /// Told on `queue` each time accepting pauses (for metrics).
    private let onPause: (@Sendable (AcceptPause) -> Void)?
    /// Connections per client address; nil: no per-client cap.
    private let clientCounts: ClientConnectionCounts?
    /// Told on `queue` each time a connection is closed at accept by the per-client cap.
    private let onClientCap: (@Sendable () -> Void)?
    /// At a cap (the listener's: nil; a client's: its address), closes the connection
    /// that waited longest for a request (of that client) so the new one takes its place;
    /// false when none waits. Nil: a full listener pauses and a full client is refused.
    private let makeRoom: (@Sendable (_ client: String?) -> Bool)?

    /// Binds and listens (`SO_REUSEADDR`); accepting starts with `start`.
    package init(
        address: SocketAddress, group: EventLoopGroup, maxConnections: Int,
        backlog: Int32 = 1024, acceptBurst: Int = 64, retryDelaySeconds: Double = 0.1,
        openConnections: ConnectionCounter = ConnectionCounter(),
        clientCounts: ClientConnectionCounts? = nil,
        onPause: (@Sendable (AcceptPause) -> Void)? = nil,
        onClientCap: (@Sendable () -> Void)? = nil,
        makeRoom: (@Sendable (_ client: String?) -> Bool)? = nil
    ) throws(TransportError) {
        BrokenPipe.ignore()
        let fd = tokenswap_socket_nonblocking(address.family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", errno: errno) }
        SocketOptions.enableReuseAddress(fd)
        let bound = address.withSockAddr { bind(fd, $0, $1) }
        guard bound == 0, listen(fd, backlog) == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            throw .system(call: bound == 0 ? "listen" : "bind", errno: code)
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let local = withUnsafeBytes(of: &storage) {
            SocketAddress(raw: $0.baseAddress.unsafelyUnwrapped, length: length)
        }
        guard named == 0, let local else {
            _ = Glibc.close(fd)
            throw .system(call: "getsockname", errno: errno)
        }
        self.fd = fd
        self.localAddress = local
        self.group = group
        self.maxConnections = maxConnections
        self.acceptBurst = acceptBurst
        self.retryDelaySeconds = retryDelaySeconds
        self.openConnections = openConnections
        self.onPause = onPause
        self.clientCounts = clientCounts
        self.onClientCap = onClientCap
        self.makeRoom = makeRoom
        self.queue = DispatchQueue(label: "tokenswap.accept.\(local.port)")
        self.source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        // The listening fd is closed only after its source is cancelled (#833/#949).
        // Until `stop()`, the source (and so this listener) stays alive by design.
        source.setEventHandler { [self] in acceptBurstNow() }
        source.setCancelHandler { [fd] in _ = Glibc.close(fd) }
    }

    /// Starts accepting. `onAccept` runs on the new channel's loop, which owns it.
    package func start(onAccept: @escaping @Sendable (SocketChannel) -> Void) {
        queue.async { [self] in
            guard !stopped, acceptHandler == nil else { return }
            acceptHandler = onAccept
            source.activate()
        }
    }

    /// Stops accepting and closes the listening socket; open connections are untouched.
    package func stop() {
        queue.async { [self] in
            guard !stopped else { return }
            stopped = true
            source.cancel()
            if acceptHandler == nil {
                source.activate()  // never started: activation runs the cancel handler
            } else if paused {
                source.resume()
            }
        }
    }

    private func acceptBurstNow() {
        guard !stopped, let onAccept = acceptHandler else { return }
        for _ in 0..<acceptBurst {
            let atCap = openConnections.current >= maxConnections
            if atCap, makeRoom == nil { return pause(.connectionCap) }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    tokenswap_accept_nonblocking(fd, $0, &length)
                }
            }
            guard client >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED: continue  // signal, or the peer gave up in the backlog
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: return pause(.resourcesExhausted)
                default: return  // EAGAIN: backlog empty
                }
            }
            // With `makeRoom`, the oldest waiting connection closes (on its loop, soon) and
            // the new one takes its place: the count passes the cap by those closing.
            if atCap, makeRoom?(nil) != true {
                // Every connection has a request in progress: none to close for this one.
                _ = Glibc.close(client)
                return pause(.connectionCap)
            }
            let peer = withUnsafeBytes(of: &storage) {
                SocketAddress(raw: $0.baseAddress.unsafelyUnwrapped, length: length)
            }
            let host = peer?.host
            if let clientCounts, let host, !clientCounts.admit(host) {
                onClientCap?()
                if makeRoom?(host) == true {
                    // One of the client's waiting connections is closing for this one.
                    _ = clientCounts.admit(host, force: true)
                } else {
                    // Closed before a byte is read: the client holds its share already.
                    _ = Glibc.close(client)
                    continue
                }
            }
            SocketOptions.enableNoDelay(client)
            openConnections.increment()
            let loop = group.next()
            loop.execute { [self] in
                let channel = SocketChannel(adopting: client, peerAddress: peer, loop: loop)
                channel.whenClosed { [self] in
                    openConnections.decrement()
                    if let host { clientCounts?.release(host) }
                }
                onAccept(channel)
            }
        }
    }

    private func pause(_ reason: AcceptPause) {
        guard !paused else { return }
        paused = true
        onPause?(reason)
        source.suspend()
        queue.asyncAfter(deadline: Deadline.after(seconds: retryDelaySeconds).dispatchTime) {
            [self] in
            guard paused, !stopped else { return }
            paused = false
            source.resume()
        }
    }
}
