import Dispatch
import HTTPCore
import Transport

/// One HTTP/1.1 connection: reading head → reading body → handling → writing →
/// keep-alive (reading head again) or lingering close. Lives on its channel's loop.
///
/// `@unchecked Sendable` is sound: every `var` is touched only on `channel.loop`'s serial
/// queue: the channel's handlers run there, the sweeper and drain run there, and a
/// handler's result is brought back with `loop.execute` before it touches the state.
/// Sendable is needed only to capture `self` in those `@Sendable` closures.
final class Connection: @unchecked Sendable {
    enum Phase {
        case readingHead
        case readingBody
        /// A handler runs; the read source is paused, pipelined bytes wait.
        case handling
        case writing
        /// After the last response: write side shut, input drained until EOF or deadline.
        case lingering
        case closed
    }

    let channel: SocketChannel
    let table: LoopConnections
    let router: Router
    let configuration: ServerConfiguration

    var parser: RequestHeadParser
    /// Received bytes; `buffer[consumed...]` is not yet parsed. Emptied (capacity and
    /// all) whenever everything is consumed, so an idle connection holds no buffer.
    var buffer: [UInt8] = []
    var consumed = 0
    var phase = Phase.readingHead
    /// When the current phase's deadline passes (`DispatchTime` uptime); `.max`: none.
    private(set) var deadlineNanos = UInt64.max
    /// The first byte of the current head has arrived (the header deadline then runs).
    var headStarted = false
    var requestsServed = 0
    /// The head whose body is being read or whose request is being handled.
    var head: RequestHead?
    /// The chunked decoder and the data it decoded so far, for a chunked body.
    var chunkedDecoder: ChunkedDecoder?
    var chunkedBody: [UInt8] = []
    var sentContinue = false

    init(
        channel: SocketChannel, table: LoopConnections, router: Router,
        configuration: ServerConfiguration
    ) {
        self.channel = channel
        self.table = table
        self.router = router
        self.configuration = configuration
        self.parser = RequestHeadParser(limits: configuration.limits)
    }

    func start() {
        table.add(self)
        channel.whenClosed { [self] in
            phase = .closed
            table.remove(self)
        }
        channel.setReadHandler { [self] in readable() }
        // The first request's header deadline runs from accept: a client that connects
        // and sends nothing is treated like one that trickles (nginx does the same).
        setDeadline(afterSeconds: configuration.headerTimeoutSeconds)
        channel.resumeReading()
        // Accepted while draining: its request may already be here (see `drain`).
        if table.draining { drain() }
    }

    func setDeadline(afterSeconds seconds: Double) {
        deadlineNanos = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
    }

    func clearDeadline() {
        deadlineNanos = .max
    }

    private func readable() {
        if phase == .handling || phase == .writing {
            // Bytes (or EOF) arrived while a request is in progress: leave them in the
            // kernel and stop the source until the response is written (`nextRequest`).
            channel.pauseReading()
            return
        }
        switch channel.receive(into: &buffer) {
        case .received:
            if phase == .lingering {
                // Lingering close: input is read only to be thrown away (RFC 9112 §9.6).
                buffer.removeAll(keepingCapacity: true)
                return
            }
            process()
        case .wouldBlock:
            return
        case .endOfFile:
            // Between requests EOF is the normal end. Mid-head or mid-body, the request is
            // incomplete and must never be dispatched (RFC 9112 §6.3, §8).
            forceClose()
        case .failed:
            forceClose()
        }
    }

    /// Moves the state machine as far as the buffered bytes allow.
    func process() {
        while true {
            switch phase {
            case .readingHead:
                guard consumed < buffer.count else {
                    // Nothing buffered: give the memory back while the connection idles.
                    buffer = []
                    consumed = 0
                    return
                }
                if !headStarted {
                    headStarted = true
                    // Absolute from the first byte; the first request's deadline already
                    // runs from accept, and moving it later would let a client stretch it.
                    if requestsServed > 0 {
                        setDeadline(afterSeconds: configuration.headerTimeoutSeconds)
                    }
                }
                let parsed: RequestHead?
                do {
                    parsed = try parser.parse(buffer, from: consumed)
                } catch {
                    configuration.observer?.observe(.malformed(error))
                    return reject(.badRequest(status: error.status))
                }
                guard let parsed else {
                    compact()
                    return
                }
                consumed += parsed.byteCount
                beginBody(of: parsed)
            case .readingBody:
                guard readBody() else { return }
            case .handling, .writing, .lingering, .closed:
                return
            }
        }
    }

    /// Drops consumed bytes so the unparsed rest starts at 0 (offsets the parser keeps
    /// are relative to the head's start, so moving the head is allowed).
    func compact() {
        guard consumed > 0 else { return }
        buffer.removeSubrange(0..<consumed)
        consumed = 0
    }

    private func beginBody(of parsed: RequestHead) {
        head = parsed
        sentContinue = false
        phase = .readingBody
        switch parsed.framing {
        case .none, .untilClose:
            // A request without CL or TE has no body (RFC 9112 §6.3 rule 7); untilClose
            // is a response-only framing the request parser never produces.
            break
        case .contentLength:
            setDeadline(afterSeconds: configuration.bodyTimeoutSeconds)
        case .chunked:
            chunkedDecoder = ChunkedDecoder(limits: configuration.limits)
            chunkedBody = []
            setDeadline(afterSeconds: configuration.bodyTimeoutSeconds)
        }
    }

    /// The sweeper found this connection past its deadline.
    func deadlinePassed() {
        switch phase {
        case .readingHead where !headStarted:
            // Idle keep-alive (or a silent new connection): just close (RFC 9112 §9.5).
            configuration.observer?.observe(.deadlinePassed(requestsServed > 0 ? .idle : .header))
            forceClose()
        case .readingHead, .readingBody:
            configuration.observer?.observe(
                .deadlinePassed(phase == .readingHead ? .header : .body))
            // RFC 9110 §15.5.9: 408 tells the client the server gave up waiting.
            reject(.requestTimeout)
        case .writing:
            configuration.observer?.observe(.deadlinePassed(.write))
            forceClose()
        case .lingering:
            forceClose()
        case .handling, .closed:
            clearDeadline()
        }
    }

    /// Between requests with nothing of the next one received: what an operator calls an
    /// idle keep-alive connection.
    var isIdle: Bool { phase == .readingHead && !headStarted }

    /// Graceful shutdown began: an idle keep-alive connection closes now; one with a
    /// request in progress finishes it and answers with `Connection: close`. A request
    /// the client has already sent may wait in the kernel, its read event not yet
    /// handled: it is read first, so it is answered rather than reset by the close.
    func drain() {
        guard phase == .readingHead, !headStarted else { return }
        readable()
        guard phase == .readingHead, !headStarted else { return }
        if requestsServed > 0 { return forceClose() }
        // A new connection that has not sent its first request yet connected before the
        // drain and is about to send it: a close now would reset that request. It gets
        // the linger time to send it (then it is answered with `Connection: close`); its
        // header deadline still applies, and the drain deadline bounds everything.
        let grace =
            DispatchTime.now().uptimeNanoseconds
            + UInt64(max(0, configuration.lingerSeconds) * 1e9)
        deadlineNanos = min(deadlineNanos, grace)
    }

    func forceClose() {
        phase = .closed
        clearDeadline()
        channel.close()
    }
}
