import HTTPCore
import Transport

extension Connection {
    /// Takes the body from the buffer if it is all there and dispatches the request.
    /// - Returns: true when the request was dispatched or rejected (the phase moved on);
    ///   false when more bytes are needed.
    func readBody() -> Bool {
        guard let head else { return false }
        switch head.framing {
        case .none, .untilClose:
            dispatch(head, body: [])
            return true
        case .contentLength(let length):
            let available = buffer.count - consumed
            guard available >= length else {
                sendContinueIfExpected(head)
                compact()
                return false
            }
            let body = Array(buffer[consumed..<(consumed + length)])
            consumed += length
            dispatch(head, body: body)
            return true
        case .chunked:
            guard var decoder = chunkedDecoder else { return false }
            do {
                consumed += try decoder.decode(buffer, from: consumed, into: &chunkedBody)
            } catch {
                configuration.observer?.observe(.malformed(error))
                reject(.badRequest(status: error.status))
                return true
            }
            // A chunked body has no announced length: its decoded bytes are reserved as
            // they arrive.
            let grown = chunkedBody.count - reservedBodyBytes
            if grown > 0, !reserveBody(grown) { return true }
            guard decoder.isComplete else {
                chunkedDecoder = decoder
                sendContinueIfExpected(head)
                compact()
                return false
            }
            let body = chunkedBody
            chunkedDecoder = nil
            chunkedBody = []
            dispatch(head, body: body)
            return true
        }
    }

    /// RFC 9110 §10.1.1: a client that sent `Expect: 100-continue` waits for the interim
    /// response before the body; send it once, and only while the body is still missing
    /// (a client that sent the body anyway needs no invitation).
    private func sendContinueIfExpected(_ head: RequestHead) {
        guard head.expectContinue, !sentContinue else { return }
        sentContinue = true
        stream.send(ResponseEncoder.continueResponse) { [self] result in
            if case .failure = result { forceClose() }
        }
    }

    /// Hands the complete request to its handler and stops reading until the response
    /// is written: pipelined bytes wait (RFC 9112 §9.3.2, answers in order).
    ///
    /// The handler is called in place on this connection's loop (an async handler's task
    /// has the loop as its executor), so parsing, routing, the handler, an upstream
    /// exchange on a connection of the same loop and the response all happen on one
    /// thread with no hop.
    ///
    /// Reading is paused lazily: only when the socket turns readable while a request is
    /// in progress (see `readable()`). Most clients send nothing until they have the
    /// answer, so most requests skip a pause/resume pair.
    func dispatch(_ head: RequestHead, body: [UInt8]) {
        guard state.bodyComplete() == .dispatch else { return }
        // The body now belongs to the request (bounded by the handler's run), not to a
        // stalled read.
        releaseBody()
        let request = head.request(body: body, remoteAddress: channel.peerAddress?.host)
        switch router.resolve(method: request.method, path: request.path) {
        case .error(let error):
            configuration.observer?.observe(.unrouted(status: error.status))
            let response = configuration.errorResponse(error, for: request)
            // Through the queue, not inline: a buffer of pipelined requests to unknown
            // paths would otherwise recurse (respond → send → next request → respond…).
            channel.loop.execute { [self] in respond(response) }
        case .handler(let handler, let routePath):
            let loop = channel.loop
            handlerRunning = true
            let context = RequestContext(routePath: routePath, executor: loop)
            handler(
                request, context,
                HTTPHandler.Respond { [self] response in
                    // In place only when called later on the loop: an answer given before
                    // the handler returned would recurse through pipelined requests, and
                    // one from another thread must not touch the connection.
                    if loop.inLoop, !handlerRunning {
                        answer(response)
                    } else {
                        loop.execute { [self] in answer(response) }
                    }
                })
            handlerRunning = false
        }
    }

    /// A handler's answer, or for its failure (nil) the configured 500. The error
    /// responder is given the request without its body (the head is all it reads); the
    /// body was the handler's.
    private func answer(_ response: HTTPResponse?) {
        if let response { return respond(response) }
        guard let head else { return }
        let request = head.request(body: [], remoteAddress: channel.peerAddress?.host)
        respond(configuration.errorResponse(.handlerFailed, for: request))
    }
}
