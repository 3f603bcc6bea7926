/// Why a TLS handshake (with an upstream, or a client of ours) failed, or why a TLS
/// context could not be built. The reason strings come from OpenSSL's
/// error queue and verify result; they name the check that failed, never key material.
public enum TLSFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The chain did not verify against the trust store (unknown CA, expired, …).
    case certificateVerifyFailed(reason: String)
    /// The certificate is valid but not for the host we asked for (RFC 9110 §4.3.4).
    case hostnameMismatch
    /// No TLS version both sides accept; we require TLS 1.2 or later.
    case protocolVersion(reason: String)
    /// Any other handshake failure, including the peer closing mid-handshake.
    case handshake(reason: String)
    /// The local TLS configuration could not be built (e.g. an unreadable CA file).
    case configuration(reason: String)

    public var description: String {
        switch self {
        case .certificateVerifyFailed(let reason): return "certificate verify failed: \(reason)"
        case .hostnameMismatch: return "certificate hostname mismatch"
        case .protocolVersion(let reason): return "protocol version: \(reason)"
        case .handshake(let reason): return "handshake failed: \(reason)"
        case .configuration(let reason): return "configuration: \(reason)"
        }
    }
}
