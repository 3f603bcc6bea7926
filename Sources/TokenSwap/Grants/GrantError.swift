import HTTPClient
import HTTPCore

/// Every way a token request ends without tokens: the rows of CONTRACT §2's error table.
/// `GrantError+Response.swift` is the one place that turns a case into status,
/// body and headers; everything that fails (decoding, opening a sealed token, the
/// upstream call, interpreting the provider's answer) ends as one of these cases.
///
/// Associated texts are written by this service and never contain request or response
/// content (codes, tokens, secrets); provider bodies are carried as bytes, passed through
/// to the client only, never logged.
public enum GrantError: Error, Sendable, Equatable {
    /// 400 `invalid_request`: a required field is missing or the body is malformed.
    case invalidRequest(String)
    /// 415 `invalid_request`: a Content-Type other than form or JSON.
    case unsupportedMediaType
    /// 404 `not_found`: an endpoint the provider does not have (e.g. the device flow of
    /// a provider without a device endpoint).
    case unknownProvider
    /// 400 `invalid_grant`: the sealed refresh token cannot be opened; the provider was
    /// not called.
    case unopenableToken
    /// The provider's own 4xx OAuth error (status other than 429), body verbatim.
    case providerRejected(status: HTTPStatus, body: [UInt8])
    /// The provider answered 429; `retryAfterSeconds` is its `Retry-After`, clamped
    /// (CONTRACT §2), `body` its body when that is an OAuth error.
    case providerThrottled(retryAfterSeconds: Int?, body: [UInt8]?)
    /// 502 `upstream_error`: 5xx, or an answer that is not a valid token response.
    case upstreamError(reason: String)
    /// 502 `upstream_unreachable`: DNS, connect or TLS failed.
    case upstreamUnreachable(reason: String)
    /// 504 `upstream_timeout`: the upstream deadline passed.
    case upstreamTimeout
    /// 503 `temporarily_unavailable`: this service cannot take the request right now
    /// (upstream pool full, shutting down, crypto library failing). Never caused by input.
    case temporarilyUnavailable(reason: String)
    /// 429 `rate_limited`: tokenswap's own per-client limit.
    case rateLimited(retryAfterSeconds: Int)
    /// 401 `invalid_client`: the `client_id` sent is not the provider's (CONTRACT §8).
    case invalidClient
    /// 400 `unsupported_grant_type`: a `grant_type` the token endpoint does not serve.
    case unsupportedGrantType
    /// 503 `temporarily_unavailable` with `Retry-After`: a revocation the provider could not
    /// take (failed, throttled, timed out); the client keeps its token and retries
    /// (RFC 7009 §2.2.1).
    case revocationUnavailable(retryAfterSeconds: Int)
    /// 400 `invalid_scope`: a device request asked for a scope outside the provider's
    /// `_DEVICE_SCOPES` allow-list (RFC 6749 §5.2); the provider was not called.
    case invalidScope
    /// 400 `invalid_grant`: the sealed device code does not open (tampered, for another
    /// provider or client, or a sealed refresh token); the provider was not called.
    case unopenableDeviceCode
    /// 400 with one of RFC 8628 §3.5's poll answers, however the provider said it;
    /// `interval` is the device code's current polling interval in seconds.
    case devicePoll(DevicePollError, interval: Int)
    /// 400 `invalid_grant`: the sealed refresh token opened, but its grant family was
    /// revoked (at `/revoke` or on reuse) or its lifetime ran out (CONTRACT §14); the
    /// provider was not called.
    case grantEnded(GrantEnding)
    /// 400 `invalid_dpop_proof`: a DPoP proof that breaks a rule of RFC 9449 §4.3, was
    /// replayed, or is missing where the provider requires one (CONTRACT §13); the
    /// provider was not called. The text names the rule, never the proof.
    case invalidDPoPProof(String)
    /// 400 `use_dpop_nonce`: a proof without a nonce tokenswap issued and still accepts
    /// (RFC 9449 §8); the answer carries a fresh `DPoP-Nonce`.
    case useDPoPNonce
    /// 400 `invalid_grant`: a sealed value bound to a DPoP key, presented without a proof
    /// or with another key's (CONTRACT §13): the grant is not this client's; the provider
    /// was not called.
    case dpopKeyMismatch
    /// 503 `temporarily_unavailable` with `Retry-After`: the shared state store is down
    /// and `TOKENSWAP_STATE_FAILURE=closed` (CONTRACT §12), so a request that needs it is
    /// refused rather than served from this copy's memory; never caused by input.
    case stateUnavailable(retryAfterSeconds: Int)
    /// 503 `temporarily_unavailable` with `Retry-After`: this copy's memory for DPoP proof
    /// ids is full, or the client's share of it is (CONTRACT §13). A live proof id is
    /// never dropped to make room, so a new proof waits until old ones expire.
    case dpopProofIDsFull(retryAfterSeconds: Int)
    /// 503 `temporarily_unavailable` with `Retry-After: 1`: as many requests as a copy
    /// holds already wait on the refresh in flight of the same token (256), or this copy
    /// waits on as many tokens in the shared store as it may (CONTRACT §12); answered at
    /// once, with no provider call.
    case refreshCrowded
}

extension GrantError {
    /// How a failed upstream exchange surfaces (CONTRACT §2): unreachable and TLS are
    /// 502 `upstream_unreachable`, every deadline 504, broken or oversized answers 502
    /// `upstream_error`, and our own capacity limits 503 so clients retry.
    public init(_ clientError: HTTPClientError) {
        switch clientError {
        case .unreachable: self = .upstreamUnreachable(reason: clientError.description)
        case .tls: self = .upstreamUnreachable(reason: clientError.description)
        case .timeout: self = .upstreamTimeout
        case .invalidURL, .invalidRequest, .protocolError, .responseTooLarge:
            self = .upstreamError(reason: clientError.description)
        case .poolExhausted, .shutdown, .resourcesExhausted:
            self = .temporarilyUnavailable(reason: clientError.description)
        }
    }
}
