#if canImport(Glibc)
    import Glibc
#endif

/// A connected, non-blocking TCP socket owned by one event loop: the same type for
/// accepted (server) and connected (client) sockets.
///
/// Every method must be called on `loop` (debug builds assert it); handlers run there.
///
/// The loop watches the socket (level-triggered epoll) only for what is wanted now:
/// reading while `resumeReading` is in force, writing while a send could not finish at
/// once or a connect is pending. With neither, the socket is out of the epoll set (a
/// hang-up is always reported and would wake the loop for nobody). `close` takes it out
/// of the set before the fd is closed, so its number cannot be reused while watched.
///
/// `@unchecked Sendable` is sound: the mutable state below is touched only on `loop`'s
/// thread (its entry points assert it, and the loop calls `handle` there), so it is
/// never accessed from two threads at once. The type is Sendable only so `@Sendable`
/// closures run on the loop can capture it.
package final class SocketChannel: @unchecked Sendable {
    package let loop: EventLoop
    /// The peer as the kernel reported it at accept or connect.
    package let peerAddress: SocketAddress?
    let fd: Int32

    /// What the loop watches the socket for, and whether it is in the epoll set.
    private var wantsRead = false
    private var wantsWrite = false
    private var watched = false
    package private(set) var isClosed = false
    /// Idle in a pool (`markIdle`): the loop hands its events over before the other events
    /// of a wait, so a close or stray bytes retire it before a request of the same wait can
    /// take it (`EventLoop.closesSeenThrough`). On the loop.
    package private(set) var isIdle = false
    /// The loop's `wait` when the channel last went idle (tests set it past every wait).
    package var idleSinceWait: UInt64 = 0

    /// Marks the channel idle in its pool from now on (above).
    package func markIdle() {
        isIdle = true
        idleSinceWait = loop.wait
    }

    /// Marks the channel in use again (a request or command is about to be written).
    package func markBusy() {
        isIdle = false
    }

    /// Whether a close (or stray bytes) may have reached this idle channel without the loop
    /// having handed it over yet: unless it went idle before a complete wait whose first
    /// pass has run. Then its owner looks at the socket before writing.
    package var mayHoldUnseenClose: Bool {
        idleSinceWait >= loop.closesSeenThrough
    }

    private var readHandler: (() -> Void)?
    private var writableWaiter: (() -> Void)?
    private var closeHandlers: [() -> Void] = []

    /// Bytes accepted by `send` but not yet taken by the kernel, from `outboundOffset`.
    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    private var sendCompletions: [(end: Int, done: (Result<Void, TransportError>) -> Void)] = []

    /// Takes ownership of a non-blocking, connected `fd`. Call on `loop`.
    init(adopting fd: Int32, peerAddress: SocketAddress?, loop: EventLoop) {
        self.fd = fd
        self.loop = loop
        self.peerAddress = peerAddress
        loop.register(self)
    }

    /// The loop saw the socket ready. On the loop.
    func handle(readable: Bool, writable: Bool) {
        // A hang-up or error reads as readable: the handler's receive then sees EOF or
        // the error, which is how it is noticed and closed.
        if readable, wantsRead, !isClosed { readHandler?() }
        guard writable, wantsWrite, !isClosed else { return }
        if let waiter = writableWaiter {
            writableWaiter = nil
            waiter()
        } else {
            flushOutbound()
        }
    }

    private func updateInterest(read: Bool, write: Bool) {
        guard read != wantsRead || write != wantsWrite else { return }
        wantsRead = read
        wantsWrite = write
        loop.watch(self, read: read, write: write, wasWatched: watched)
        watched = read || write
    }

    // MARK: reading

    /// Installs the handler called (on the loop) whenever the socket is readable, has hit
    /// EOF, or has failed. The handler calls `receive`. Reading starts with
    /// `resumeReading()`.
    package func setReadHandler(_ handler: @escaping () -> Void) {
        loop.assertInLoop()
        readHandler = handler
    }

    /// Lets the read source deliver events. Idempotent.
    package func resumeReading() {
        loop.assertInLoop()
        guard !isClosed else { return }
        updateInterest(read: true, write: wantsWrite)
    }

    /// Stops read events without touching the socket: bytes wait in the kernel. Idempotent.
    package func pauseReading() {
        loop.assertInLoop()
        guard !isClosed else { return }
        updateInterest(read: false, write: wantsWrite)
    }

    /// Appends what the socket has (at most `maxBytes`) to `buffer` with one `recv`.
    package func receive(into buffer: inout [UInt8], maxBytes: Int = .max) -> ReceiveResult {
        loop.assertInLoop()
        guard !isClosed else { return .failed(errno: EBADF) }
        let scratch = loop.scratch.bytes
        let limit = min(maxBytes, scratch.count)
        guard limit > 0 else { return .wouldBlock }
        let result = receiveOnce(into: UnsafeMutableRawBufferPointer(rebasing: scratch[0..<limit]))
        if case .received(let count) = result {
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
        }
        return result
    }

    /// Reads with one `recv` into the first half of the loop's scratch buffer and hands
    /// `body` what arrived and the second half, for the caller's own output (a TLS
    /// session's plaintext): a connection then keeps only what it decides to keep, not
    /// a read buffer of its own.
    package func receive(
        _ body: (_ received: UnsafeRawBufferPointer, _ spare: UnsafeMutableRawBufferPointer)
            -> Void
    ) -> ReceiveResult {
        loop.assertInLoop()
        guard !isClosed else { return .failed(errno: EBADF) }
        let scratch = loop.scratch.bytes
        let half = scratch.count / 2
        guard half > 0 else { return .wouldBlock }
        let result = receiveOnce(into: UnsafeMutableRawBufferPointer(rebasing: scratch[0..<half]))
        if case .received(let count) = result {
            body(
                UnsafeRawBufferPointer(rebasing: scratch[0..<count]),
                UnsafeMutableRawBufferPointer(rebasing: scratch[half...]))
        }
        return result
    }

    /// One `recv` into `destination`: what arrived, or how the read ended.
    /// Appends to `buffer` what the socket holds now, `maxBytes` per read and at most
    /// `reads` reads, so one flooding peer cannot hold the loop (the level-triggered read
    /// source fires again for the rest). A short read drained the socket: the recv that
    /// would only say `EAGAIN` is skipped.
    package func receiveAvailable(into buffer: inout [UInt8], maxBytes: Int, reads: Int)
        -> ReceiveEnd
    {
        for _ in 0..<max(0, reads) {
            switch receive(into: &buffer, maxBytes: maxBytes) {
            case .received(let count) where count < maxBytes: return .open
            case .received: continue
            case .wouldBlock: return .open
            case .endOfFile: return .endOfFile
            case .failed(let code): return .failed(errno: code)
            }
        }
        return .open
    }

    private func receiveOnce(into destination: UnsafeMutableRawBufferPointer) -> ReceiveResult {
        while true {
            let count = recv(fd, destination.baseAddress, destination.count, 0)
            if count > 0 { return .received(count) }
            if count == 0 { return .endOfFile }
            switch errno {
            case EINTR: continue  // a signal interrupted the call before any byte moved
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let code: return .failed(errno: code)
            }
        }
    }

    // MARK: writing

    /// Sends `bytes` in order after anything already pending. `completion` runs on the
    /// loop once the kernel has taken every byte, or with the error that stopped it; it
    /// may run before `send` returns (the common case: the whole write fits at once).
    package func send(
        _ bytes: [UInt8], completion: @escaping (Result<Void, TransportError>) -> Void
    ) {
        loop.assertInLoop()
        guard !isClosed else { return completion(.failure(.channelClosed)) }
        if !outbound.isEmpty {
            outbound.append(contentsOf: bytes)
            sendCompletions.append((outbound.count, completion))
            return
        }
        switch write(bytes, from: 0) {
        case .success(let written) where written == bytes.count:
            completion(.success(()))
        case .success(let written):
            outbound = bytes
            outboundOffset = written
            sendCompletions = [(bytes.count, completion)]
            setWriteDelivering(true)
        case .failure(let error):
            completion(.failure(error))
        }
    }

    /// True while bytes handed to `send` still wait for the kernel (a slow reader).
    package var hasPendingWrites: Bool { !outbound.isEmpty }

    /// Bytes handed to `send` that the kernel has not taken yet.
    package var pendingWriteBytes: Int { outbound.count - outboundOffset }

    private func flushOutbound() {
        switch write(outbound, from: outboundOffset) {
        case .success(let written):
            outboundOffset += written
            let sent = outboundOffset
            var finished: [(Result<Void, TransportError>) -> Void] = []
            while let first = sendCompletions.first, first.end <= sent {
                finished.append(first.done)
                sendCompletions.removeFirst()
            }
            if sendCompletions.isEmpty {
                outbound = []
                outboundOffset = 0
                setWriteDelivering(false)
            }
            for done in finished { done(.success(())) }
        case .failure(let error):
            failPendingSends(error)
        }
    }

    /// Writes as much as the kernel takes now; returns how many bytes it took.
    private func write(_ bytes: [UInt8], from offset: Int) -> Result<Int, TransportError> {
        bytes.withUnsafeBytes { raw in
            var position = offset
            while position < raw.count {
                let count = Glibc.send(
                    fd, raw.baseAddress.map { $0 + position }, raw.count - position,
                    Int32(MSG_NOSIGNAL))
                if count >= 0 {
                    position += count
                    continue
                }
                switch errno {
                case EINTR: continue  // interrupted before any byte moved; just retry
                case EAGAIN, EWOULDBLOCK: return .success(position - offset)
                case let code: return .failure(.system(call: "send", errno: code))
                }
            }
            return .success(position - offset)
        }
    }

    private func failPendingSends(_ error: TransportError) {
        let pending = sendCompletions
        sendCompletions = []
        outbound = []
        outboundOffset = 0
        setWriteDelivering(false)
        for entry in pending { entry.done(.failure(error)) }
    }

    private func setWriteDelivering(_ on: Bool) {
        guard !isClosed else { return }
        updateInterest(read: wantsRead, write: on)
    }

    /// Calls `body` once, on the loop, when the socket becomes writable (used for the
    /// completion of a non-blocking connect).
    func awaitWritable(_ body: @escaping () -> Void) {
        loop.assertInLoop()
        writableWaiter = { [self] in
            setWriteDelivering(false)
            body()
        }
        setWriteDelivering(true)
    }

    // MARK: closing

    /// Sends FIN after pending bytes (`shutdown(SHUT_WR)`); reading still works. This is
    /// the first step of a lingering close (RFC 9112 §9.6): the peer sees the response
    /// end, and our later close does not turn unread input into an RST that destroys it.
    package func shutdownWrite() {
        loop.assertInLoop()
        guard !isClosed else { return }
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Registers `handler` to run on the loop after the fd is closed.
    package func whenClosed(_ handler: @escaping () -> Void) {
        loop.assertInLoop()
        closeHandlers.append(handler)
    }

    /// Stops watching and closes the fd; the close handlers run right after the caller's
    /// step. Pending sends fail with `.channelClosed`. Idempotent.
    package func close() {
        loop.assertInLoop()
        guard !isClosed else { return }
        let pending = sendCompletions
        sendCompletions = []
        outbound = []
        isClosed = true
        // Out of the epoll set before the number is released, so it cannot be reused
        // while watched. No EINTR retry: on Linux the fd is released even when close
        // reports EINTR, and a retry could close a number another thread was given.
        loop.unregister(self, wasWatched: watched)
        watched = false
        wantsRead = false
        wantsWrite = false
        _ = Glibc.close(fd)
        readHandler = nil
        writableWaiter = nil
        // The close handlers run after the caller's step, as they did when the fd closed
        // asynchronously: a connection closing itself is not re-entered.
        let handlers = closeHandlers
        closeHandlers = []
        loop.later { for handler in handlers { handler() } }
        for entry in pending { entry.done(.failure(.channelClosed)) }
    }
}
