/// What happened to a session, for an app's UI and its logs. Carries no token.
public enum TokenSessionEvent: Sendable, Hashable {
    /// Signed in from a swap answer or the device flow.
    case signedIn
    /// A refresh succeeded; the new refresh token is stored.
    case refreshed(expiresInSeconds: Int?)
    /// The tokens are gone; the app must sign in again.
    case signedOut(SignOutReason)
    /// A refresh (or the store) failed for now; the tokens are kept.
    case transientFailure(TransientFailure)
    /// The grant ends in `timeLeftSeconds` (CONTRACT §14): less than the configured
    /// `grantEndingWarningSeconds` are left. Sent once per grant and session, so the app
    /// can ask the user to sign in again at a good moment rather than mid-task.
    case grantEndingSoon(timeLeftSeconds: Double)
}

/// A failure a session rides out: it keeps its tokens and asks again after
/// `retryAfterSeconds` (nil: on the next call).
public struct TransientFailure: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// 429: tokenswap or the provider asked to slow down (its `Retry-After` is used).
        case throttled
        /// 5xx, or a 2xx that was not a token answer.
        case serverError(status: Int)
        /// Any other rejection than `invalid_grant` (a misconfigured deployment, say).
        case rejected(status: Int, error: String?)
        /// No answer: DNS, connect, TLS, timeout.
        case network
        /// The credential store could not be read or written.
        case storageUnavailable
    }

    public let kind: Kind
    public let retryAfterSeconds: Double?

    public init(kind: Kind, retryAfterSeconds: Double?) {
        self.kind = kind
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String {
        let wait = retryAfterSeconds.map { ", retry after \($0.waitText)" } ?? ""
        return "\(kind)\(wait)"
    }
}
