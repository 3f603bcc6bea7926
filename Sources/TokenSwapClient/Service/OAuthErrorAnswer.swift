/// An error answer from tokenswap: `{"error":"…","error_description":"…"}` (RFC 6749
/// §5.2) with its status, `Retry-After` (429, 503), and the `interval` a device-token
/// poll answer carries (RFC 8628 §3.5).
public struct OAuthErrorAnswer: Sendable, Hashable, CustomStringConvertible {
    public let status: Int
    /// The `error` code; `nil` when the body was not an OAuth error (a proxy's HTML page).
    public let error: String?
    public let errorDescription: String?
    public let retryAfterSeconds: Double?
    public let intervalSeconds: Int?

    public init(
        status: Int, error: String?, errorDescription: String? = nil,
        retryAfterSeconds: Double? = nil, intervalSeconds: Int? = nil
    ) {
        self.status = status
        self.error = error
        self.errorDescription = errorDescription
        self.retryAfterSeconds = retryAfterSeconds
        self.intervalSeconds = intervalSeconds
    }

    /// tokenswap's error descriptions name what is wrong, never a token (CONTRACT §2).
    public var description: String {
        "HTTP \(status) \(error ?? "(no OAuth error)")"
            + (errorDescription.map { ": \($0)" } ?? "")
    }
}
