import TLS
import Transport

extension UpstreamConnection {
    /// Runs the TLS handshake to completion or failure by `handshakeDeadline`.
    /// Call on the loop; `completion` runs once, on the loop.
    func startHandshake(
        deadline handshakeDeadline: Deadline,
        completion: @escaping (Result<Void, HTTPClientError>) -> Void
    ) {
        loop.assertInLoop()
        handshakeCompletion = completion
        deadline.set(handshakeDeadline) { [self] in
            finishHandshake(.failure(.timeout(.tlsHandshake)))
        }
        advanceHandshake()
    }

    func handshakeReadable() {
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
        guard state == .handshaking, let tls else { return }
        let progress: TLSEngine.HandshakeProgress
        do {
            progress = try tls.handshake()
        } catch {
            // Send our alert (e.g. bad_certificate) so the server's log says why.
            flushTLS { _ in }
            return finishHandshake(.failure(.tls(error)))
        }
        flushTLS { [self] result in
            if case .failure(let error) = result {
                finishHandshake(.failure(.unreachable(reason: "\(error)")))
            }
        }
        switch progress {
        case .complete:
            state = .idle
            finishHandshake(.success(()))
        case .needsMoreInput where atEndOfStream:
            let reason = socketFailure ?? "peer closed the connection during the handshake"
            finishHandshake(.failure(.tls(.handshake(reason: reason))))
        case .needsMoreInput:
            break
        }
    }

    private func finishHandshake(_ result: Result<Void, HTTPClientError>) {
        guard let completion = handshakeCompletion else { return }
        handshakeCompletion = nil
        deadline.clear()
        if case .failure = result { close() }
        completion(result)
    }
}
