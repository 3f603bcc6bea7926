import HTTPCore

extension GrantError {
    public var status: HTTPStatus {
        switch self {
        case .invalidRequest, .unopenableToken, .invalidScope, .unopenableDeviceCode, .devicePoll,
            .unsupportedGrantType, .invalidDPoPProof, .useDPoPNonce, .dpopKeyMismatch,
            .grantEnded:
            .badRequest
        case .invalidClient: .unauthorized
        case .unsupportedMediaType: .unsupportedMediaType
        case .unknownProvider: .notFound
        case .providerRejected(let status, _): status
        case .providerThrottled, .rateLimited: .tooManyRequests
        case .upstreamError, .upstreamUnreachable: .badGateway
        case .upstreamTimeout: .gatewayTimeout
        case .temporarilyUnavailable, .revocationUnavailable, .stateUnavailable,
            .dpopProofIDsFull, .refreshCrowded:
            .serviceUnavailable
        }
    }

    /// The `error` code of the body; for provider bodies passed through, what this
    /// service calls the outcome in its logs (the provider's own code is not parsed out,
    /// so its body is never echoed into a log).
    public var errorCode: String {
        switch self {
        case .invalidRequest, .unsupportedMediaType: "invalid_request"
        case .unknownProvider: "not_found"
        case .unopenableToken: "invalid_grant"
        case .providerRejected: "provider_rejected"
        case .providerThrottled(_, let body):
            body == nil ? "temporarily_unavailable" : "provider_throttled"
        case .upstreamError: "upstream_error"
        case .upstreamUnreachable: "upstream_unreachable"
        case .upstreamTimeout: "upstream_timeout"
        case .temporarilyUnavailable, .revocationUnavailable, .stateUnavailable,
            .dpopProofIDsFull, .refreshCrowded:
            "temporarily_unavailable"
        case .rateLimited: "rate_limited"
        case .invalidClient: "invalid_client"
        case .unsupportedGrantType: "unsupported_grant_type"
        case .invalidScope: "invalid_scope"
        case .unopenableDeviceCode: "invalid_grant"
        case .devicePoll(let error, _): error.rawValue
        case .grantEnded: "invalid_grant"
        case .invalidDPoPProof: "invalid_dpop_proof"
        case .useDPoPNonce: "use_dpop_nonce"
        case .dpopKeyMismatch: "invalid_grant"
        }
    }

    /// Text for `error_description`: fixed wording per case, never request content.
    var errorDescription: String {
        switch self {
        case .invalidRequest(let detail): detail
        case .unsupportedMediaType:
            "Content-Type must be application/x-www-form-urlencoded or application/json"
        case .unknownProvider: "no such provider"
        case .unopenableToken: "refresh token is invalid, expired or was issued for another client"
        case .providerRejected: "the provider rejected the request"
        case .providerThrottled: "the provider is rate limiting requests; retry later"
        case .upstreamError: "the provider gave an invalid answer"
        case .upstreamUnreachable: "the provider could not be reached"
        case .upstreamTimeout: "the provider did not answer in time"
        case .temporarilyUnavailable: "the service is temporarily unavailable; retry later"
        case .rateLimited: "too many requests; retry later"
        case .invalidClient: "client_id is not this provider's client"
        case .unsupportedGrantType:
            "grant_type must be authorization_code, refresh_token or (where the provider has a device endpoint) urn:ietf:params:oauth:grant-type:device_code"
        case .revocationUnavailable:
            "the provider could not revoke the token now; keep it and retry later"
        case .invalidScope: "a requested scope is not allowed for this client"
        case .unopenableDeviceCode:
            "device code is invalid or was issued for another client"
        case .devicePoll(let error, _): error.errorDescription
        case .grantEnded(let ending): ending.errorDescription
        case .invalidDPoPProof(let rule): rule
        case .useDPoPNonce: "the DPoP proof must carry the nonce in the DPoP-Nonce header"
        case .dpopKeyMismatch:
            "this grant is bound to a DPoP key: send a proof made with that key"
        case .stateUnavailable:
            "the service's shared state cannot be reached; retry later"
        case .dpopProofIDsFull:
            "too many DPoP proofs are being remembered; retry after the time given"
        case .refreshCrowded:
            "too many requests are waiting for the same refresh; retry in a second"
        }
    }

    /// The response for the client: an RFC 6749 §5.2 body (or the provider's own, verbatim)
    /// with the no-store headers every token response carries, and `Retry-After` on 429.
    public var response: HTTPResponse {
        var headers = TokenResponseHeaders.base
        let body: [UInt8]
        switch self {
        case .providerRejected(_, let providerBody):
            body = providerBody
        case .providerThrottled(let retryAfter, let providerBody):
            if let retryAfter { headers.add(name: "Retry-After", value: String(retryAfter)) }
            body = providerBody ?? Self.body(code: errorCode, description: errorDescription)
        case .rateLimited(let seconds), .revocationUnavailable(let seconds),
            .stateUnavailable(let seconds), .dpopProofIDsFull(let seconds):
            headers.add(name: "Retry-After", value: String(max(1, seconds)))
            body = Self.body(code: errorCode, description: errorDescription)
        case .refreshCrowded:
            headers.add(name: "Retry-After", value: "1")
            body = Self.body(code: errorCode, description: errorDescription)
        case .devicePoll(let error, let interval):
            // RFC 8628 §3.5: the device reads `error`; `interval` tells it how long to
            // wait now (only pending and slow_down go on polling).
            var members: [JSONValue.Member] = [
                .init("error", .string(errorCode)),
                .init("error_description", .string(errorDescription)),
            ]
            if error.keepsPolling { members.append(.init("interval", .number(String(interval)))) }
            body = JSONValue.object(members).serialized
        case .invalidClient:
            // RFC 6749 §5.2: a 401 names the scheme a client may authenticate with.
            headers.add(name: "WWW-Authenticate", value: #"Basic realm="tokenswap""#)
            body = Self.body(code: errorCode, description: errorDescription)
        default:
            body = Self.body(code: errorCode, description: errorDescription)
        }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    private static func body(code: String, description: String) -> [UInt8] {
        OAuthErrorResponse.body(code: code, description: description)
    }
}

/// The one builder of `{"error":…,"error_description":…}` answers (RFC 6749 §5.2): token
/// endpoint errors, the server's own errors, the sandbox's provider errors, CORS and
/// readiness refusals all come through here, with the no-store headers of a token
/// response unless the caller says otherwise.
public enum OAuthErrorResponse {
    public static func body(code: String, description: String) -> [UInt8] {
        JSONValue.object([
            .init("error", .string(code)), .init("error_description", .string(description)),
        ]).serialized
    }

    public static func make(
        _ status: HTTPStatus, code: String, description: String,
        headers: HTTPHeaders = TokenResponseHeaders.base
    ) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: headers, body: body(code: code, description: description))
    }
}
