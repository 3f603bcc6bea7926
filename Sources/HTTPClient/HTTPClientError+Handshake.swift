import ClientStream

extension HTTPClientError {
    /// A TLS handshake that did not complete, as the client reports it: OpenSSL's reason
    /// is `.tls` (502 `upstream_unreachable`, CONTRACT.md §2), a flight that could not be
    /// sent `.unreachable`, and the deadline `.timeout(.tlsHandshake)`.
    init(handshake failure: ClientStream.HandshakeFailure) {
        switch failure {
        case .tls(let error): self = .tls(error)
        case .send(let error): self = .unreachable(reason: "\(error)")
        case .timedOut: self = .timeout(.tlsHandshake)
        }
    }
}
