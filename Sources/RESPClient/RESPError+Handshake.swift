import ClientStream

extension RESPError {
    /// A TLS handshake with the store that did not complete, as the client reports it
    /// (CONTRACT §12): OpenSSL's reason is `.tls`, a flight that could not be sent
    /// `.connectFailed`, and the connection attempt's deadline `.timedOut`.
    init(handshake failure: ClientStream.HandshakeFailure) {
        switch failure {
        case .tls(let error): self = .tls(error)
        case .send(let error): self = .connectFailed(reason: "\(error)")
        case .timedOut: self = .timedOut
        }
    }
}
