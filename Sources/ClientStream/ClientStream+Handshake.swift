import TLS
import Transport

extension ClientStream {
    /// Why a handshake did not complete; each client maps it to its own error.
    package enum HandshakeFailure: Error, Sendable {
        /// OpenSSL ended it (verification, hostname, protocol version, the server's
        /// alert), or the server closed or reset the connection before it completed.
        case tls(TLSFailure)
        /// A flight of handshake records could not be sent.
        case send(TransportError)
        /// `deadline` passed first.
        case timedOut
    }

    /// Runs the TLS handshake to completion or failure by `deadline`. Call on the loop,
    /// once, on a TLS stream; until `completion` runs the owner hands every readable event
    /// to `handshakeReadable`. `completion` runs once, on the loop, unless the stream is
    /// closed first; on failure the owner closes the stream.
    package func handshake(
        by deadline: Deadline, completion: @escaping (Result<Void, HandshakeFailure>) -> Void
    ) {
        loop.assertInLoop()
        handshakeCompletion = completion
        handshakeTimer = loop.schedule(at: deadline) { [weak self] in
            self?.finishHandshake(.failure(.timedOut))
        }
        advanceHandshake()
    }

    /// The socket is readable while the handshake runs.
    package func handshakeReadable() {
        switch readAvailable() {
        case .open: advanceHandshake()
        case .endOfStream:
            // The server's alert, if it sent one, is in the engine: let it explain.
            advanceHandshake(atEndOfStream: true)
        case .failed(let reason):
            advanceHandshake(atEndOfStream: true, socketFailure: reason)
        }
    }

    private func advanceHandshake(atEndOfStream: Bool = false, socketFailure: String? = nil) {
        guard handshakeCompletion != nil, let tls else { return }
        let progress: TLSEngine.HandshakeProgress
        do {
            progress = try tls.handshake()
        } catch {
            // Send our alert (e.g. bad_certificate) so the server's log says why.
            flushTLS { _ in }
            return finishHandshake(.failure(.tls(error)))
        }
        flushTLS { [self] result in
            if case .failure(let error) = result { finishHandshake(.failure(.send(error))) }
        }
        switch progress {
        case .complete:
            finishHandshake(.success(()))
        case .needsMoreInput where atEndOfStream:
            let reason = socketFailure ?? "server closed the connection during the handshake"
            finishHandshake(.failure(.tls(.handshake(reason: reason))))
        case .needsMoreInput:
            break
        }
    }

    private func finishHandshake(_ result: Result<Void, HandshakeFailure>) {
        guard let completion = handshakeCompletion else { return }
        handshakeCompletion = nil
        handshakeTimer?.cancel()
        handshakeTimer = nil
        completion(result)
    }
}
