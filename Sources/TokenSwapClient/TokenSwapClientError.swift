import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Everything the client kit throws. No case carries a token, code or secret, so an error
/// can be logged or shown as it is.
public enum TokenSwapClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No session: never signed in, signed out, or the provider called the refresh token
    /// dead (`invalid_grant`). The app must sign in again.
    case signedOut(SignOutReason)
    /// The credential store cannot be read or written right now (a keychain before the
    /// first unlock, a full disk). Not "signed out": the tokens are kept; try again later.
    case storageUnavailable
    /// tokenswap or the network failed for now (429, 5xx, no answer). The tokens are kept;
    /// the session will not ask again before `retryAfterSeconds` have passed.
    case temporarilyUnavailable(retryAfterSeconds: Double)
    /// tokenswap answered with an OAuth error the caller must handle.
    case rejected(OAuthErrorAnswer)
    /// A 2xx answer that is not what the endpoint promises (not JSON, no access token).
    case unexpectedAnswer(status: Int)
    /// No HTTP answer at all: DNS, connect, TLS, timeout. `code` is the transport's
    /// `URLError.Code` (nil when an app's own `HTTPTransport` threw something else), so an
    /// app can tell offline (`.notConnectedToInternet`) from a timeout; `detail` says the
    /// same in words and never holds the request (its body carries the token).
    case network(code: URLError.Code?, detail: String)
    /// The device flow's user code expired before the user approved it (RFC 8628 §3.5).
    case deviceAuthorizationExpired
    /// The user declined the device authorization (RFC 8628 §3.5 `access_denied`).
    case accessDenied
    /// A setting the app passed cannot work (a bad provider name or base URL).
    case invalidConfiguration(String)

    /// The `URLError.Code` of a `network` error, nil for every other case.
    public var urlErrorCode: URLError.Code? {
        guard case .network(let code, _) = self else { return nil }
        return code
    }

    public var description: String {
        switch self {
        case .signedOut(let reason): "signed out (\(reason))"
        case .storageUnavailable: "the credential store is unavailable"
        case .temporarilyUnavailable(let seconds):
            "temporarily unavailable, retry after \(seconds.waitText)"
        case .rejected(let answer): "rejected: \(answer)"
        case .unexpectedAnswer(let status): "unexpected answer (HTTP \(status))"
        case .network(_, let detail): "network error: \(detail)"
        case .deviceAuthorizationExpired: "the device authorization expired"
        case .accessDenied: "the user denied the authorization"
        case .invalidConfiguration(let text): "invalid configuration: \(text)"
        }
    }
}
