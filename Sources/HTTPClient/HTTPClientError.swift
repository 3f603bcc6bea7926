import TLS
import HTTPCore

/// Every way an upstream exchange fails, each distinct so the caller can map it to its
/// own answer (CONTRACT.md §2: unreachable and TLS → 502 `upstream_unreachable`,
/// timeout → 504 `upstream_timeout`, the rest → 502 `upstream_error`). The texts carry
/// reasons (errno names, OpenSSL reason strings), never request or response content.
public enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not `http://` or `https://` with a host, or has a bad port.
    case invalidURL(reason: String)
    /// The request cannot be put on the wire (a bad method, target or field); a bug in
    /// the caller. The reason names the field, never its value.
    case invalidRequest(reason: String)
    /// The origin could not be reached: name resolution failed, or every address
    /// refused or failed to connect.
    case unreachable(reason: String)
    /// The TLS handshake failed; the request was never sent.
    case tls(TLSFailure)
    /// The exchange's deadline passed, in the named phase.
    case timeout(TimeoutPhase)
    /// The server broke HTTP/1.1 framing, or closed the connection before the response
    /// was complete (never reported as a truncated success).
    case protocolError(reason: String)
    /// The response head or body is over the configured limit.
    case responseTooLarge(limitBytes: Int)
    /// The origin's pool is at its connection cap and its wait queue is full.
    case poolExhausted
    /// This process could not open a socket: out of descriptors or kernel memory
    /// (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`). Not the provider's fault.
    case resourcesExhausted(reason: String)
    /// `shutdown()` was called.
    case shutdown

    /// Where the exchange's one deadline struck (CONTRACT §5: the upstream timeout is the
    /// whole exchange; no phase has a deadline of its own).
    public enum TimeoutPhase: String, Sendable, Equatable {
        /// Resolving the name or connecting.
        case connect
        case tlsHandshake
        /// Waiting for a connection, writing, reading the response.
        case exchange
    }

    public var description: String {
        switch self {
        case .invalidURL(let reason): return "invalid upstream URL: \(reason)"
        case .invalidRequest(let reason): return "invalid upstream request: \(reason)"
        case .unreachable(let reason): return "upstream unreachable: \(reason)"
        case .tls(let failure): return "upstream TLS failure: \(failure)"
        case .timeout(let phase): return "upstream timeout (\(phase.rawValue))"
        case .protocolError(let reason): return "upstream protocol error: \(reason)"
        case .responseTooLarge(let limit): return "upstream response over \(limit) bytes"
        case .poolExhausted: return "upstream connection pool exhausted"
        case .resourcesExhausted(let reason): return "cannot open a socket: \(reason)"
        case .shutdown: return "HTTP client shut down"
        }
    }
}

/// TLS handshake failures are part of the client's errors (`HTTPClientError.tls`); the
/// type lives in the shared TLS target, named here so the client's users need not
/// import it.
public typealias TLSFailure = TLS.TLSFailure
