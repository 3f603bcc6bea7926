import HTTPCore

/// How one revocation ended, as `tokenswap_revocations_total` counts it (a closed set).
/// `revoked` and `invalid` answer the client identically (RFC 7009 §2.2: no oracle); only
/// the metric tells them apart.
package enum ProviderRevocationOutcome: Sendable, Equatable {
    /// The provider took it.
    case revoked
    /// The provider calls the token invalid or unknown (a value that did not open, too).
    case invalid
    /// The provider has no revocation API (style `none`): nothing was sent, and tokenswap's
    /// own revocation of the family (CONTRACT §14) is all there is.
    case broker
    /// The provider failed, throttled or timed out; the client retries after this long.
    case failed(retryAfterSeconds: Int)

    package var label: String {
        switch self {
        case .revoked: "revoked"
        case .invalid: "invalid"
        case .broker: "broker"
        case .failed: "failed"
        }
    }

    /// When the provider says nothing better: long enough not to hammer a provider that
    /// is down, short enough that a sign-out completes soon.
    static let defaultRetryAfterSeconds = 30

    /// The provider's answer to a revocation request. 2xx is done; 429 and 5xx are
    /// transient (the token may be live, so the client must keep it and retry); 401/403
    /// mean our own credentials were refused, so nothing was revoked either and the
    /// client is told to retry rather than to forget a live token; any other 4xx is the
    /// provider calling the token invalid or unknown (RFC 7009 §2.2; GitHub answers 404
    /// or 422).
    /// L2P answers everything with HTTP 200 and a `status` string: anything but `ok` is
    /// the provider calling the token invalid.
    static func interpret(_ response: HTTPResponse, style: RevocationStyle)
        -> ProviderRevocationOutcome
    {
        switch response.status.code {
        case 200..<300 where style == .l2p:
            (try? JSONParser.parse(response.body))?["status"]?.stringValue == "ok"
                ? .revoked : .invalid
        case 200..<300: .revoked
        case 401, 403: .failed(retryAfterSeconds: defaultRetryAfterSeconds)
        case 429, 500...:
            .failed(retryAfterSeconds: retryAfterSeconds(response.headers))
        case 400..<500: .invalid
        default: .failed(retryAfterSeconds: defaultRetryAfterSeconds)
        }
    }

    /// The provider's `Retry-After`, clamped as on the token endpoint (CONTRACT §2), else
    /// the default.
    static func retryAfterSeconds(_ headers: HTTPHeaders) -> Int {
        ProviderTokenResponse.retryAfterSeconds(headers) ?? defaultRetryAfterSeconds
    }
}
