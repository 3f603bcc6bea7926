import HTTPCore
import Transport

extension Connection {
    /// Writes the response to the request in `head`, then keeps the connection alive or
    /// closes it. Runs on the loop.
    func respond(_ response: HTTPResponse) {
        guard phase == .handling, let head else { return }
        let keepAlive =
            head.keepAlive && requestsServed < configuration.maxRequestsPerConnection
            && !table.draining
        // RFC 9110 §9.3.2: HEAD gets GET's header fields, Content-Length included, and no
        // body.
        let bytes = table.encode(
            response, method: head.method, version: head.version, close: !keepAlive)
        self.head = nil
        write(bytes, thenClose: !keepAlive)
    }

    /// Answers a request that cannot be served (framing error, limit, timeout) and
    /// closes: after such an error the next message boundary is unknown (RFC 9112 §9.6,
    /// shared/docs/HTTP1-RULES.md "Reject").
    func reject(_ error: ServerError) {
        guard phase == .readingHead || phase == .readingBody else { return }
        chunkedDecoder = nil
        chunkedBody = []
        head = nil
        let response = configuration.errorResponse(error, for: nil)
        let bytes = table.encode(response, method: .get, version: .http1_1, close: true)
        write(bytes, thenClose: true)
    }

    private func write(_ bytes: [UInt8], thenClose close: Bool) {
        phase = .writing
        setDeadline(afterSeconds: configuration.writeTimeoutSeconds)
        // Head and body leave in one send (one buffer, TCP_NODELAY on the socket).
        channel.send(bytes) { [self] result in
            guard phase == .writing else { return }
            switch result {
            case .failure:
                forceClose()
            case .success:
                if close { linger() } else { nextRequest() }
            }
        }
    }

    /// Back to reading: a pipelined request may already be in the buffer.
    private func nextRequest() {
        phase = .readingHead
        headStarted = false
        setDeadline(afterSeconds: configuration.idleTimeoutSeconds)
        process()
        if phase == .readingHead || phase == .readingBody { channel.resumeReading() }
    }

    /// Lingering close (RFC 9112 §9.6): shut the write side so the response ends with a
    /// FIN, read and discard what the client still sends until it closes or
    /// `lingerSeconds` pass, then close. Closing at once with unread input would send an
    /// RST, which can destroy the response before the client reads it.
    private func linger() {
        phase = .lingering
        buffer = []
        consumed = 0
        channel.shutdownWrite()
        setDeadline(afterSeconds: configuration.lingerSeconds)
        channel.resumeReading()
    }
}
