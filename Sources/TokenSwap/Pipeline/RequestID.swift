import HTTPCore
import Sealing

/// The `X-Request-Id` of a request: the client's (or a proxy's) when it is a safe token,
/// otherwise a fresh one, echoed in the response and written in the request's log line
/// so one request can be followed from client to proxy to provider call.
public enum RequestID {
    public static let headerName = "X-Request-Id"
    /// Longer ids are replaced: a log line must not be blown up by a header.
    public static let maxLength = 128

    /// The id as sent if it is 1...`maxLength` token characters (RFC 9110 §5.6.2: visible
    /// ASCII without separators, so it cannot break a header, a log line or JSON);
    /// nil otherwise.
    public static func accepted(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= maxLength,
            value.utf8.allSatisfy(HTTPGrammar.isToken)
        else { return nil }
        return value
    }

    /// A new id: 128 random bits as 32 lowercase hex digits, from OpenSSL's DRBG (no
    /// system call per request); the kernel's generator if OpenSSL ever fails.
    public static func mint() -> String {
        let (high, low) =
            SecureRandom.words()
            ?? {
                var generator = SystemRandomNumberGenerator()
                return (generator.next(), generator.next())
            }()
        // Written straight into the string's storage: this runs on every request.
        return String(unsafeUninitializedCapacity: 32) { digits in
            for position in 0..<32 {
                let word = position < 16 ? high : low
                let shift = UInt64(60 - 4 * (position % 16))
                digits[position] = Hex.digit(UInt8(truncatingIfNeeded: word >> shift))
            }
            return 32
        }
    }

    /// The request's id: the accepted one, or a fresh one.
    public static func resolve(_ value: String?) -> String {
        accepted(value) ?? mint()
    }
}
