import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP peer that plays a broken store byte by byte: each accepted connection
/// is handed to `serve` on a thread of its own (blocking POSIX calls, off the pool), so a
/// test can answer half a reply, reset, or never answer at all.
final class RawRESPPeer: Sendable {
    let port: UInt16
    private let listener: Int32
    /// Commands' bytes received so far, over all connections.
    let received = Mutex<[UInt8]>([])
    let connections = Mutex(0)
    /// Connections the client closed (seen by `readUntilTheClientCloses`).
    let closedByTheClient = Mutex(0)

    /// `serve` gets the connected socket and the peer; it returns when done (the socket
    /// is then closed).
    init(_ serve: @escaping @Sendable (Int32, RawRESPPeer) -> Void) throws {
        let (fd, port) = try Loopback.bind(listenBacklog: 16)
        listener = fd
        self.port = port
        Thread { [self] in
            while true {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { return }
                connections.withLock { $0 += 1 }
                Thread {
                    serve(connection, self)
                    close(connection)
                }.start()
            }
        }.start()
    }

    /// Reads until at least `count` bytes arrived on `fd` (or EOF); records them.
    func read(_ fd: Int32, atLeast count: Int) {
        var got = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while got < count {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return }
            got += n
            received.withLock { $0 += buffer[0..<n] }
        }
    }

    func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Returns once the client's kernel has acknowledged every byte written to `fd`
    /// (nothing left in the send queue, `SIOCOUTQ`), so what follows (a reset) comes after
    /// them. On loopback that is at once; the look yields the thread between tries.
    func awaitDelivered(_ fd: Int32) {
        let sendQueueBytes: UInt = 0x5411  // SIOCOUTQ (TIOCOUTQ)
        var unsent: Int32 = 1
        while ioctl(fd, sendQueueBytes, &unsent) == 0, unsent > 0 { sched_yield() }
    }

    /// Reads (and records) until the client closes the connection; counts the close.
    func readUntilTheClientCloses(_ fd: Int32) {
        read(fd, atLeast: .max)
        closedByTheClient.withLock { $0 += 1 }
    }

    /// Closes with an RST instead of a FIN (SO_LINGER 0).
    func reset(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
