import HTTPClient

extension TokenEndpointError {
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
