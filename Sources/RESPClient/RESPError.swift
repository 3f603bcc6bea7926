import TLS

/// Every way a command to the shared store fails (CONTRACT §12). The texts carry reasons
/// (errno names, OpenSSL reason strings, the server's error code and words), never a
/// command's arguments, a reply's values or the password: a store holds digests and
/// sealed values, and the password opens it.
public enum RESPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `TOKENSWAP_STATE_URL` is not `redis://` or `rediss://` with a host, or has a bad
    /// port, database or userinfo.
    case invalidURL(reason: String)
    /// The command cannot be sent (no arguments); a bug in the caller.
    case invalidCommand(reason: String)
    /// Name resolution failed, or every address refused or failed to connect.
    case connectFailed(reason: String)
    /// The TLS handshake failed (verification, hostname, protocol version), or the CA
    /// file could not be loaded. Never retried without TLS.
    case tls(TLSFailure)
    /// The command's deadline passed (waiting for a connection, connecting, TLS, AUTH,
    /// writing or reading).
    case timedOut
    /// The server closed or reset the connection before the reply was complete (never
    /// reported as a short success).
    case connectionClosed
    /// The server's bytes are not RESP2, or break a bound (`RESPLimits`); the connection
    /// is closed.
    case protocolViolation(reason: String)
    /// AUTH was refused (wrong password, unknown or disabled ACL user). The reason is the
    /// server's error code, never the credentials.
    case authenticationFailed(reason: String)
    /// The server answered with an error reply; `message` is its error code and leading
    /// words, cut before anything the server quotes (Redis quotes a command's arguments
    /// in some errors, e.g. an unknown command).
    case server(message: String)
    /// Every pooled connection of the caller's loop already has its most commands in
    /// flight, or too many commands wait for a connection to open.
    case poolExhausted
    /// `shutdown()` was called.
    case shutdown

    public var description: String {
        switch self {
        case .invalidURL(let reason): return "invalid state store URL: \(reason)"
        case .invalidCommand(let reason): return "invalid store command: \(reason)"
        case .connectFailed(let reason): return "state store unreachable: \(reason)"
        case .tls(let failure): return "state store TLS failure: \(failure)"
        case .timedOut: return "state store timeout"
        case .connectionClosed: return "state store closed the connection"
        case .protocolViolation(let reason): return "state store protocol violation: \(reason)"
        case .authenticationFailed(let reason):
            return "state store authentication failed: \(reason)"
        case .server(let message): return "state store error: \(message)"
        case .poolExhausted: return "state store connection pool exhausted"
        case .shutdown: return "state store client shut down"
        }
    }

    /// The part of a server's error reply that is safe to keep: printable ASCII up to
    /// the first quote (Redis puts a command's arguments in quotes, e.g. "ERR unknown
    /// command 'X', with args beginning with: 'secret'"), at most 120 bytes, trailing
    /// blanks and punctuation dropped. Always starts with the error code (RESP2 "-CODE
    /// words", by convention upper case).
    package static func safeServerMessage(_ text: String) -> String {
        var kept: [UInt8] = []
        for byte in text.utf8 {
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") || kept.count == 120 {
                break
            }
            kept.append(byte >= 0x20 && byte < 0x7F ? byte : UInt8(ascii: "?"))
        }
        while let last = kept.last,
            last == UInt8(ascii: " ") || last == UInt8(ascii: ",") || last == UInt8(ascii: ":")
        {
            kept.removeLast()
        }
        return kept.isEmpty ? "ERR" : String(decoding: kept, as: UTF8.self)
    }
}
