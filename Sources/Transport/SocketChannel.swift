import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// A connected, non-blocking TCP socket owned by one event loop: the same type for
/// accepted (server) and connected (client) sockets.
///
/// Every method must be called on `loop` (debug builds assert it); handlers run there.
///
/// Dispatch discipline on Linux (swift-corelibs-libdispatch#833: re-adding a source for
/// a live fd corrupts the shared epoll "muxnote"; #949: use-after-free when sources of
/// an fd are torn down concurrently): each source is created at most ONCE, on the loop
/// (the read source in `init`; the write source the first time a send cannot finish at
/// once, or for a connect), afterwards only suspended and resumed; both are cancelled on
/// the loop, and `close(fd)` runs only in the LAST cancel handler, so the fd number
/// cannot be reused while libdispatch still watches it. Most responses leave in one
/// `send`, so most connections never create a write source at all: half the epoll
/// registrations, and no source is ever activated only to be cancelled (a pattern that
/// crashed libdispatch's manager thread under connection churn here: "Source finalized
/// twice" in `_dispatch_source_refs_finalize_unregistration`).
///
/// `@unchecked Sendable` is sound: the mutable state below is touched only on `loop`'s
/// serial queue (the public methods assert it, and the Dispatch handlers are installed
/// with that queue as target), so it is never accessed from two threads at once. The
/// type is Sendable only so the Dispatch handlers (which are `@Sendable`) can capture it.
public final class SocketChannel: @unchecked Sendable {
    public let loop: EventLoop
    /// The peer as the kernel reported it at accept or connect.
    public let peerAddress: SocketAddress?
    let fd: Int32

    private let readSource: any DispatchSourceRead
    /// Created on first need (see the type's comment); never re-created.
    private var writeSource: (any DispatchSourceWrite)?
    private var readDelivering = false
    /// The read source has been activated (its first resume); see `close()`.
    private var readActivated = false
    private var writeDelivering = false
    private var pendingCancels = 0
    public private(set) var isClosed = false

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
        readSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: loop.queue)
        readSource.setEventHandler { [self] in
            // EPOLLHUP/EPOLLERR also wake the read source: the handler's receive then
            // sees EOF or the error, which is how a hang-up is noticed and closed.
            guard !isClosed else { return }
            readHandler?()
        }
        readSource.setCancelHandler { [self] in finishCancel() }
    }

    private func makeWriteSource() -> any DispatchSourceWrite {
        let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: loop.queue)
        source.setEventHandler { [self] in
            guard !isClosed else { return }
            if let waiter = writableWaiter {
                writableWaiter = nil
                waiter()
            } else {
                flushOutbound()
            }
        }
        source.setCancelHandler { [self] in finishCancel() }
        writeSource = source
        return source
    }

    // MARK: reading

    /// Installs the handler called (on the loop) whenever the socket is readable, has hit
    /// EOF, or has failed. The handler calls `receive`. Reading starts with
    /// `resumeReading()`.
    public func setReadHandler(_ handler: @escaping () -> Void) {
        loop.assertInLoop()
        readHandler = handler
    }

    /// Lets the read source deliver events. Idempotent.
    public func resumeReading() {
        loop.assertInLoop()
        guard !isClosed, !readDelivering else { return }
        readDelivering = true
        readActivated = true
        readSource.resume()
    }

    /// Stops read events without touching the socket: bytes wait in the kernel. Idempotent.
    public func pauseReading() {
        loop.assertInLoop()
        guard !isClosed, readDelivering else { return }
        readDelivering = false
        readSource.suspend()
    }

    /// Appends what the socket has (at most `maxBytes`) to `buffer` with one `recv`.
    public func receive(into buffer: inout [UInt8], maxBytes: Int = .max) -> ReceiveResult {
        loop.assertInLoop()
        guard !isClosed else { return .failed(errno: EBADF) }
        let scratch = loop.scratch.bytes
        let limit = min(maxBytes, scratch.count)
        guard limit > 0 else { return .wouldBlock }
        while true {
            let count = recv(fd, scratch.baseAddress, limit, 0)
            if count > 0 {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
                return .received(count)
            }
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
    public func send(
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
    public var hasPendingWrites: Bool { !outbound.isEmpty }

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
        guard !isClosed, on != writeDelivering else { return }
        writeDelivering = on
        if on {
            (writeSource ?? makeWriteSource()).resume()
        } else {
            writeSource?.suspend()
        }
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
    public func shutdownWrite() {
        loop.assertInLoop()
        guard !isClosed else { return }
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Registers `handler` to run on the loop after the fd is closed.
    public func whenClosed(_ handler: @escaping () -> Void) {
        loop.assertInLoop()
        closeHandlers.append(handler)
    }

    /// Stops both sources; the fd is closed once both cancellations finished. Pending
    /// sends fail with `.channelClosed`. Idempotent.
    public func close() {
        loop.assertInLoop()
        guard !isClosed else { return }
        let pending = sendCompletions
        sendCompletions = []
        outbound = []
        isClosed = true
        pendingCancels = writeSource == nil ? 1 : 2
        if !readActivated {
            // Never activate a cancelled source (see the type's comment): a channel
            // closed before it ever read goes through the ordinary lifecycle instead.
            readActivated = true
            readDelivering = true
            readSource.activate()
        }
        readSource.cancel()
        writeSource?.cancel()
        // A suspended (or never activated) source runs its cancel handler only once
        // resumed; cancel comes first, so no event handler runs after the resume. The
        // write source exists only if it was activated, so it is never activated here.
        if !readDelivering { readSource.resume() }
        if !writeDelivering { writeSource?.resume() }
        readDelivering = true
        writeDelivering = true
        for entry in pending { entry.done(.failure(.channelClosed)) }
    }

    private func finishCancel() {
        pendingCancels -= 1
        guard pendingCancels == 0 else { return }
        // No EINTR retry: on Linux the fd is released even when close reports EINTR, and
        // a retry could close a number another thread has just been given.
        _ = Glibc.close(fd)
        let handlers = closeHandlers
        closeHandlers = []
        readHandler = nil
        writableWaiter = nil
        for handler in handlers { handler() }
    }
}
