import HTTPCore
import Transport

extension Connection {
    /// Writes the response to the request in `head`, then keeps the connection alive or
    /// closes it. Runs on the loop.
    func respond(_ response: HTTPResponse) {
        guard state.phase == .handling, let head else { return }
        let close = state.responseReady(now: .now)
        // RFC 9110 §9.3.2: HEAD gets GET's header fields, Content-Length included, and no
        // body.
        let bytes = table.encode(
            response, method: head.method, version: head.version, close: close)
        self.head = nil
        write(bytes)
    }

    /// Answers a request that cannot be served (framing error, limit, timeout) and
    /// closes: after such an error the next message boundary is unknown (RFC 9112 §9.6,
    /// shared/docs/HTTP1-RULES.md "Reject").
    func reject(_ error: ServerError) {
        guard state.rejectReady(now: .now) else { return }
        releaseBody()
        releaseHead()
        chunkedDecoder = nil
        chunkedBody = []
        head = nil
        let response = configuration.errorResponse(error, for: nil)
        let bytes = table.encode(response, method: .get, version: .http1_1, close: true)
        write(bytes)
    }

    /// Sends the response (head and body in one send, one buffer, TCP_NODELAY on the
    /// socket); the state machine says what follows.
    private func write(_ bytes: [UInt8]) {
        stream.send(bytes) { [self] result in
            guard case .writing = state.phase else { return }
            switch result {
            case .failure: forceClose()
            case .success: perform(state.writeCompleted(now: .now))
            }
        }
    }

    /// Back to reading: a pipelined request may already be in the buffer.
    func nextRequest() {
        startWaiting()
        process()
        if state.isReading { channel.resumeReading() }
    }

    /// Lingering close (RFC 9112 §9.6): shut the write side so the response ends with a
    /// FIN, read and discard what the client still sends until it closes or
    /// `lingerSeconds` pass, then close. Closing at once with unread input would send an
    /// RST, which can destroy the response before the client reads it.
    func linger() {
        buffer = []
        consumed = 0
        stream.shutdownWrite()
        channel.resumeReading()
    }
}
