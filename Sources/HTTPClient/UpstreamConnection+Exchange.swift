import ClientStream
import HTTPCore
import TLS
import Transport

extension UpstreamConnection {
    /// The outcome of a successful exchange: the response, and whether the connection
    /// went back to idle and may carry another request.
    struct Answer {
        var response: HTTPResponse
        var reusable: Bool
        /// A TLS session to resume on the next connection, taken after the first
        /// response (TLS 1.3 tickets arrive after the handshake, RFC 8446 §4.6.1).
        var session: TLSSession?
    }

    func onReadable() {
        switch state {
        case .handshaking: stream.handshakeReadable()
        case .idle: idleReadable()
        case .exchanging: exchangeReadable()
        case .closed: return
        }
    }

    /// Nothing may arrive on an idle connection (`ClientStream.stayedIdle`): whatever
    /// did, it is retired.
    private func idleReadable() {
        if !stream.stayedIdle() { close() }
    }

    /// Sends `request` and reads the response by `deadline`. Call on the loop;
    /// `completion` runs once, on the loop.
    func exchange(
        _ request: [UInt8], method: HTTPMethod, deadline exchangeDeadline: Deadline,
        completion: @escaping (Result<Answer, ExchangeFailure>) -> Void
    ) {
        loop.assertInLoop()
        let unsent = ExchangeFailure(
            error: .protocolError(reason: "pooled connection was closed by the server"),
            requestNeverSent: true)
        guard state == .idle else { return completion(.failure(unsent)) }
        // A close that reached this pooled connection before the loop's latest complete
        // wait has retired it already (`idleReadable`, handed over first). One that may
        // not have been handed over yet (the connection went idle since: a server that
        // closes after every answer) is looked for before a byte is written. A close that
        // arrives after the wait races the request: an error then, not retried, as for
        // one that arrives after a look.
        if mayHaveUnseenClose, !stream.stayedIdle() {
            close()
            return completion(.failure(unsent))
        }
        state = .exchanging
        channel.markBusy()
        reader = ResponseReader(method: method, limits: limits)
        exchangeCompletion = completion
        deadline.set(exchangeDeadline) { [self] in
            finishExchange(
                .failure(ExchangeFailure(error: .timeout(.exchange), requestNeverSent: false)))
        }
        let written: (Result<Void, TransportError>) -> Void = { [self] result in
            guard case .failure(let error) = result, state == .exchanging else { return }
            // Reset or closed while writing, before any response byte: the server did
            // not take the request (it cannot act on a request it did not finish reading).
            let neverSent = reader?.hasReceivedBytes == false
            finishExchange(
                .failure(
                    ExchangeFailure(
                        error: .protocolError(
                            reason: "connection lost while sending the request: \(error)"),
                        requestNeverSent: neverSent)))
        }
        do throws(TLSRecordError) {
            try stream.write(request, completion: written)
        } catch {
            finishExchange(
                .failure(
                    ExchangeFailure(
                        error: .protocolError(reason: error.reason), requestNeverSent: true)))
        }
    }

    private func exchangeReadable() {
        let intake = stream.readAvailable()
        guard var current = reader else { return }
        do {
            if try current.consume(&stream.plaintext) {
                reader = current
                return finishExchange(.success(current.response))
            }
        } catch {
            reader = current
            return finishExchange(.failure(ExchangeFailure(error: error, requestNeverSent: false)))
        }
        reader = current
        switch intake {
        case .open:
            return
        case .endOfStream where !current.hasReceivedBytes:
            finishExchange(
                .failure(
                    ExchangeFailure(
                        error: .protocolError(
                            reason: "connection closed before the response began"),
                        requestNeverSent: false)))
        case .endOfStream where stream.tls?.receivedCloseNotify == false:
            // RFC 8446 §6.1, RFC 9112 §9.8: over TLS a response delimited by the close
            // ends with close_notify; a bare TCP EOF may be a cut, so the body is
            // incomplete. (A length-delimited or chunked response completed above.)
            finishExchange(
                .failure(
                    ExchangeFailure(
                        error: .protocolError(
                            reason: "TLS connection closed without close_notify: truncated"),
                        requestNeverSent: false)))
        case .endOfStream:
            do {
                try current.finishAtEndOfStream()
                reader = current
                finishExchange(.success(current.response))
            } catch {
                finishExchange(.failure(ExchangeFailure(error: error, requestNeverSent: false)))
            }
        case .failed(let reason):
            finishExchange(
                .failure(
                    ExchangeFailure(
                        error: .protocolError(reason: "connection failed: \(reason)"),
                        requestNeverSent: false)))
        }
    }

    private func finishExchange(_ result: Result<HTTPResponse, ExchangeFailure>) {
        guard let completion = exchangeCompletion else { return }
        exchangeCompletion = nil
        deadline.clear()
        let keepAlive = reader?.keepAlive ?? false
        reader = nil
        switch result {
        case .failure(let failure):
            close()
            completion(.failure(failure))
        case .success(let response):
            completedExchanges += 1
            // Reuse only a clean boundary: no extra bytes, request fully written, and
            // the server did not ask to close (RFC 9112 §9.3).
            let reusable =
                keepAlive && stream.plaintext.isEmpty && !channel.hasPendingWrites
                && state == .exchanging
            if reusable {
                state = .idle
                channel.markIdle()
                deadline.set(.after(seconds: idleTimeoutSeconds)) { [self] in
                    if state == .idle { close() }
                }
            } else {
                close()
            }
            let session = completedExchanges == 1 ? stream.tls?.resumableSession() : nil
            completion(.success(Answer(response: response, reusable: reusable, session: session)))
        }
    }
}
