#if canImport(Glibc)
    import Glibc
#endif

/// What can go wrong below HTTP. Each case names the kind of failure the caller maps:
/// a server closes the connection; a client decides whether a retry is safe.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed with `errno`; `call` is the libc function's name.
    case system(call: String, errno: Int32)
    /// The text is not a numeric IPv4 or IPv6 address.
    case invalidAddress(String)
    /// Name resolution found nothing for the host (or failed with the given gai code).
    case unresolvable(host: String, code: Int32)
    /// The peer refused or reset the connection attempt (`ECONNREFUSED`, `SO_ERROR`).
    case connectFailed(errno: Int32)
    /// The connect deadline passed before the socket became writable.
    case connectTimedOut
    /// The channel was closed before or while the operation ran.
    case channelClosed

    public var description: String {
        switch self {
        case .system(let call, let code): return "\(call) failed: \(Self.text(code))"
        case .invalidAddress(let text): return "not an IP address: \(text)"
        case .unresolvable(let host, let code):
            return "cannot resolve \(host): \(String(cString: gai_strerror(code)))"
        case .connectFailed(let code): return "connect failed: \(Self.text(code))"
        case .connectTimedOut: return "connect timed out"
        case .channelClosed: return "channel closed"
        }
    }

    package static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
