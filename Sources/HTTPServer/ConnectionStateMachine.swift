import Transport

/// Every decision of one HTTP/1.1 connection, with no I/O and the clock passed in: which
/// phase it is in, which deadline runs, whether it stays alive after a response, what a
/// passed deadline or a drain means. `Connection` is the I/O shell that feeds it events
/// (bytes parsed, body complete, response ready, write done, tick, drain) and carries out
/// the actions it answers with, so the decisions are tested table-style with a fake
/// clock (ConnectionStateMachineTests).
///
/// reading head → reading body → handling → writing → reading head (keep-alive) or
/// lingering → closed.
struct ConnectionStateMachine {
    enum Phase: Equatable {
        case readingHead
        case readingBody
        /// A handler runs; reading is paused, pipelined bytes wait.
        case handling
        /// A response is being written; `close`: the connection ends after it.
        case writing(close: Bool)
        /// After the last response: write side shut, input drained until EOF or deadline
        /// (RFC 9112 §9.6).
        case lingering
        case closed
    }

    /// What the connection does next.
    enum Action: Equatable {
        case none
        /// Hand the complete request to its handler.
        case dispatch
        /// Answer `error` and close (the message boundary is lost).
        case reject(ServerError)
        /// Close now.
        case close
        /// Shut the write side and discard input until the peer closes or the deadline.
        case linger
        /// Serve the next request: parse what is buffered and read on.
        case readNext
    }

    /// The limits it decides by, from `ServerConfiguration`.
    struct Timing: Equatable {
        var headerSeconds: Double
        var bodySeconds: Double
        var idleSeconds: Double
        var writeSeconds: Double
        var lingerSeconds: Double
        var maxRequestsPerConnection: Int

        init(_ configuration: ServerConfiguration) {
            headerSeconds = configuration.headerTimeoutSeconds
            bodySeconds = configuration.bodyTimeoutSeconds
            idleSeconds = configuration.idleTimeoutSeconds
            writeSeconds = configuration.writeTimeoutSeconds
            lingerSeconds = configuration.lingerSeconds
            maxRequestsPerConnection = configuration.maxRequestsPerConnection
        }
    }

    let timing: Timing
    private(set) var phase = Phase.readingHead
    /// When the current phase's deadline passes; `.never` while a handler runs.
    private(set) var deadline: Deadline
    /// The first byte of the current head has arrived (the header deadline then runs).
    private(set) var headStarted = false
    private(set) var requestsServed = 0
    /// Graceful shutdown began: no response keeps the connection alive.
    private(set) var draining = false
    /// The request in progress asked to keep the connection (RFC 9112 §9.3).
    private var keepAliveRequested = false

    /// A connection just accepted: the first request's header deadline runs from accept,
    /// so a client that connects and sends nothing is treated like one that trickles
    /// (nginx does the same).
    init(timing: Timing, now: Deadline) {
        self.timing = timing
        deadline = .after(seconds: timing.headerSeconds, from: now)
    }

    /// Between requests with nothing of the next one received: an idle keep-alive
    /// connection (or a new one that has sent nothing yet).
    var isIdle: Bool { phase == .readingHead && !headStarted }

    /// Whether input is read now (not while a handler runs or a response is written).
    var isReading: Bool { phase == .readingHead || phase == .readingBody }

    /// Bytes of a head are buffered. The header deadline is absolute from the first byte
    /// of a head: a trickling client cannot extend it; the first request's already runs
    /// from accept and is not moved later.
    mutating func headBytesArrived(now: Deadline) {
        guard phase == .readingHead, !headStarted else { return }
        headStarted = true
        if requestsServed > 0 { deadline = .after(seconds: timing.headerSeconds, from: now) }
    }

    /// The head is complete; `hasBody` when Content-Length or chunked framing announces
    /// one (the body deadline then runs).
    mutating func headParsed(hasBody: Bool, keepAlive: Bool, now: Deadline) {
        guard phase == .readingHead else { return }
        phase = .readingBody
        keepAliveRequested = keepAlive
        if hasBody { deadline = .after(seconds: timing.bodySeconds, from: now) }
    }

    /// The body is complete: the request goes to its handler, no deadline runs meanwhile.
    mutating func bodyComplete() -> Action {
        guard phase == .readingBody else { return .none }
        phase = .handling
        deadline = .never
        requestsServed += 1
        return .dispatch
    }

    /// The handler's response is ready to be written.
    /// - Returns: whether the connection closes after it: when the client asked so, at
    ///   `maxRequestsPerConnection`, or while draining.
    mutating func responseReady(now: Deadline) -> Bool {
        let close =
            !keepAliveRequested || requestsServed >= timing.maxRequestsPerConnection || draining
        guard phase == .handling else { return true }
        phase = .writing(close: close)
        deadline = .after(seconds: timing.writeSeconds, from: now)
        return close
    }

    /// A request cannot be served (framing error, limit, timeout): answer and close, as
    /// the next message boundary is unknown (RFC 9112 §9.6).
    /// - Returns: false when no request is being read (nothing to answer).
    mutating func rejectReady(now: Deadline) -> Bool {
        guard isReading else { return false }
        phase = .writing(close: true)
        deadline = .after(seconds: timing.writeSeconds, from: now)
        return true
    }

    /// The response left completely.
    mutating func writeCompleted(now: Deadline) -> Action {
        guard case .writing(let close) = phase else { return .none }
        if close {
            phase = .lingering
            deadline = .after(seconds: timing.lingerSeconds, from: now)
            return .linger
        }
        phase = .readingHead
        headStarted = false
        deadline = .after(seconds: timing.idleSeconds, from: now)
        return .readNext
    }

    /// The socket closed, failed, or the shell closed it.
    mutating func closed() {
        phase = .closed
        deadline = .never
    }

    /// The deadline sweep: what a passed deadline means in this phase, and which
    /// deadline it was (for the observer).
    mutating func tick(now: Deadline) -> (Action, ServerDeadline?) {
        guard deadline.hasPassed(at: now) else { return (.none, nil) }
        switch phase {
        case .readingHead where !headStarted:
            // Idle keep-alive (or a silent new connection): just close (RFC 9112 §9.5).
            return (.close, requestsServed > 0 ? .idle : .header)
        case .readingHead:
            // RFC 9110 §15.5.9: 408 tells the client the server gave up waiting.
            return (.reject(.requestTimeout), .header)
        case .readingBody:
            return (.reject(.requestTimeout), .body)
        case .writing:
            return (.close, .write)
        case .lingering:
            return (.close, nil)
        case .handling, .closed:
            deadline = .never
            return (.none, nil)
        }
    }

    /// Graceful shutdown began. An idle keep-alive connection closes now; one with a
    /// request in progress finishes it and answers with `Connection: close`. A new
    /// connection that has not sent its first request yet connected before the drain and
    /// may be about to send it: a close now would reset that request, so it gets the
    /// linger time to send it (its header deadline still applies).
    mutating func drain(now: Deadline) -> Action {
        draining = true
        guard isIdle else { return .none }
        if requestsServed > 0 { return .close }
        deadline = deadline.earlier(.after(seconds: timing.lingerSeconds, from: now))
        return .none
    }
}
