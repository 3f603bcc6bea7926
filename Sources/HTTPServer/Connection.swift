import HTTPCore
import TLS
import Transport

/// One HTTP/1.1 connection: reading head → reading body → handling → writing →
/// keep-alive (reading head again) or lingering close. Lives on its channel's loop.
///
/// `@unchecked Sendable` is sound: every `var` is touched only on `channel.loop`'s serial
/// queue: the channel's handlers run there, the sweeper and drain run there, and a
/// handler's task runs on the loop (it is the task's executor).
/// Sendable is needed only to capture `self` in those `@Sendable` closures.
final class Connection: @unchecked Sendable {
    let channel: SocketChannel
    /// The channel's bytes, or the plaintext of its TLS session on an HTTPS listener.
    let stream: ConnectionStream
    let table: LoopConnections
    let router: Router
    let configuration: ServerConfiguration
    let bodyBudget: BodyBudget

    /// Every decision: phase, deadlines, keep-alive, drain. Changed only by this type's
    /// own files (the shell's I/O steps), never from outside.
    var state: ConnectionStateMachine
    var parser: RequestHeadParser
    /// Received bytes; `buffer[consumed...]` is not yet parsed. Emptied (capacity and
    /// all) whenever everything is consumed, so an idle connection holds no buffer.
    var buffer: [UInt8] = []
    var consumed = 0
    /// The head whose body is being read or whose request is being handled.
    var head: RequestHead?
    /// The chunked decoder and the data it decoded so far, for a chunked body.
    var chunkedDecoder: ChunkedDecoder?
    var chunkedBody: [UInt8] = []
    var sentContinue = false
    /// What this connection holds of `bodyBudget` for the body being read.
    var reservedBodyBytes = 0
    /// What this connection holds of `bodyBudget` for the head being read (its buffer
    /// and any incomplete TLS record).
    var reservedHeadBytes = 0
    /// The listener's table of connections waiting for a request, with this one's client,
    /// when the listener makes room by closing the oldest (the admin port); and this
    /// connection's entry while it waits.
    var waiting: (table: WaitingConnections, client: ClientConnectionCounts.ClientKey?)?
    var waitingToken: UInt64?
    /// A handler is being called inside `dispatch` (its answer, if it gives one before
    /// returning, is queued rather than written in place).
    var handlerRunning = false

    init(
        channel: SocketChannel, tls: TLSEngine? = nil, table: LoopConnections, router: Router,
        configuration: ServerConfiguration, bodyBudget: BodyBudget
    ) {
        self.bodyBudget = bodyBudget
        self.channel = channel
        self.stream = ConnectionStream(
            channel: channel, tls: tls,
            maxPendingOutputBytes: configuration.maxPendingOutputBytes)
        self.table = table
        self.router = router
        self.configuration = configuration
        self.parser = RequestHeadParser(limits: configuration.limits)
        self.state = ConnectionStateMachine(
            timing: ConnectionStateMachine.Timing(configuration), now: .now)
    }

    func start() {
        table.add(self)
        channel.whenClosed { [self] in
            state.closed()
            releaseBody()
            releaseHead()
            stopWaiting()
            table.remove(self)
        }
        channel.setReadHandler { [self] in readable() }
        startWaiting()
        channel.resumeReading()
        // Accepted while draining: its request may already be here (see `drain`).
        if table.draining { drain() }
    }

    /// When the current phase's deadline passes (for the loop's sweep).
    var deadline: Deadline { state.deadline }

    var isIdle: Bool { state.isIdle }

    private func readable() {
        guard state.isReading || state.phase == .lingering else {
            // Bytes (or EOF) arrived while a request is in progress: leave them in the
            // kernel and stop the source until the response is written (`nextRequest`).
            channel.pauseReading()
            return
        }
        switch stream.receive(into: &buffer) {
        case .received:
            if state.phase == .lingering {
                // Lingering close: input is read only to be thrown away (RFC 9112 §9.6).
                buffer.removeAll(keepingCapacity: true)
                return
            }
            process()
        case .wouldBlock:
            // Only a partial TLS record may have arrived: it is held all the same.
            if state.phase == .readingHead, stream.heldCiphertextBytes > 0 { process() }
        case .endOfFile, .failed:
            // Between requests EOF is the normal end. Mid-head or mid-body, the request is
            // incomplete and must never be dispatched (RFC 9112 §6.3, §8).
            forceClose()
        }
    }

    /// Moves the connection as far as the buffered bytes allow.
    func process() {
        while true {
            switch state.phase {
            case .readingHead:
                guard consumed < buffer.count else {
                    // Nothing buffered: give the memory back while the connection idles.
                    buffer = []
                    consumed = 0
                    holdHead()
                    return
                }
                state.headBytesArrived(now: .now)
                let parsed: RequestHead?
                do {
                    parsed = try parser.parse(buffer, from: consumed)
                } catch {
                    configuration.observer?.observe(.malformed(error))
                    return reject(.badRequest(status: error.status))
                }
                guard let parsed else {
                    // Incomplete: what waits for the rest is held against the budget (a
                    // head parsed in the same step is never held).
                    compact()
                    holdHead()
                    return
                }
                consumed += parsed.byteCount
                // The head is parsed: the body's own reservation takes over, and the
                // connection no longer waits for a request.
                releaseHead()
                stopWaiting()
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
        let hasBody: Bool
        switch parsed.framing {
        case .none, .untilClose:
            // A request without CL or TE has no body (RFC 9112 §6.3 rule 7); untilClose
            // is a response-only framing the request parser never produces.
            hasBody = false
        case .contentLength(let length):
            // Reserved before a body byte is buffered: stalled bodies cannot add up.
            guard reserveBody(length) else { return }
            hasBody = true
        case .chunked:
            chunkedDecoder = ChunkedDecoder(limits: configuration.limits)
            chunkedBody = []
            hasBody = true
        }
        state.headParsed(hasBody: hasBody, keepAlive: parsed.keepAlive, now: .now)
    }

    /// The sweeper found this connection past its deadline.
    func deadlinePassed(now: Deadline) {
        let (action, passed) = state.tick(now: now)
        if let passed { configuration.observer?.observe(.deadlinePassed(passed)) }
        perform(action)
    }

    /// Graceful shutdown began. A request the client has already sent may wait in the
    /// kernel, its read event not yet handled: it is read first, so it is answered
    /// rather than reset by the close.
    func drain() {
        if state.isIdle { readable() }
        perform(state.drain(now: .now))
    }

    /// Carries out what the state machine decided.
    func perform(_ action: ConnectionStateMachine.Action) {
        switch action {
        case .none, .dispatch: return
        case .reject(let error): reject(error)
        case .close: forceClose()
        case .linger: linger()
        case .readNext: nextRequest()
        }
    }

    func forceClose() {
        state.closed()
        channel.close()
    }

    /// Enters the listener's table of connections waiting for a request (a new one, or
    /// one between requests), when it has one.
    func startWaiting() {
        guard let waiting, waitingToken == nil, !channel.isClosed else { return }
        let loop = channel.loop
        waitingToken = waiting.table.add(client: waiting.client) { [weak self] in
            guard let connection = self else { return }
            loop.execute { connection.forceClose() }
        }
    }

    func stopWaiting() {
        guard let waiting, let token = waitingToken else { return }
        waiting.table.remove(token)
        waitingToken = nil
    }
}

extension Connection {
    /// Takes `bytes` more of the server's body budget; over it, the request is refused
    /// with 503 and the connection closed.
    func reserveBody(_ bytes: Int) -> Bool {
        guard bodyBudget.reserve(bytes) else {
            configuration.observer?.observe(.bodyBudgetExceeded)
            reject(.overloaded)
            return false
        }
        reservedBodyBytes += bytes
        return true
    }

    /// Gives back what the body being read held (it is complete, refused, or the
    /// connection ended).
    func releaseBody() {
        bodyBudget.release(reservedBodyBytes)
        reservedBodyBytes = 0
    }

    /// Makes this connection's share of the budget for the head being read what it holds
    /// now: its buffer's capacity and the ciphertext of an incomplete TLS record
    /// (CONTRACT §15: stalled heads count like stalled bodies). Over the budget, the
    /// request is refused with 503 and the connection closed (on HTTPS before the
    /// handshake completes, just closed: there is no channel to answer on).
    func holdHead() {
        let held = buffer.capacity + stream.heldCiphertextBytes
        if held < reservedHeadBytes {
            bodyBudget.release(reservedHeadBytes - held)
        } else if held > reservedHeadBytes {
            guard bodyBudget.reserve(held - reservedHeadBytes) else {
                configuration.observer?.observe(.bodyBudgetExceeded)
                releaseHead()
                reject(.overloaded)
                return
            }
        }
        reservedHeadBytes = held
    }

    /// Gives back what the head being read held (it is parsed, refused, or the
    /// connection ended).
    func releaseHead() {
        bodyBudget.release(reservedHeadBytes)
        reservedHeadBytes = 0
    }
}
