import HTTPClient

/// How one call to a provider ended, as `tokenswap_upstream_requests_total` counts it.
/// A closed set, so the `outcome` label stays bounded.
package enum UpstreamOutcome: String, Sendable, CaseIterable {
    /// A valid token response.
    case ok
    /// A 4xx with an OAuth error (or an OAuth error in a 2xx): the provider said no.
    case providerError = "provider_error"
    /// The provider answered 429.
    case rateLimited = "rate_limited"
    /// The provider answered 5xx (or another status that is not an answer).
    case serverError = "server_error"
    /// An answer that is not a valid token response, or broken HTTP.
    case invalidResponse = "invalid_response"
    /// Name resolution or connect failed.
    case unreachable
    /// A deadline passed (connect, handshake or the whole exchange).
    case timeout
    /// The TLS handshake failed (certificate, host name, protocol).
    case tls
    /// The request never left: our connection pool was full or the client shut down.
    case notSent = "not_sent"

    /// The outcome of a failed exchange, before any answer arrived.
    init(_ error: HTTPClientError) {
        switch error {
        case .unreachable: self = .unreachable
        case .tls: self = .tls
        case .timeout: self = .timeout
        case .protocolError, .responseTooLarge: self = .invalidResponse
        case .invalidURL, .invalidRequest, .poolExhausted, .shutdown, .resourcesExhausted:
            self = .notSent
        }
    }

    /// The outcome of an answer the provider gave, from its status and how it was
    /// interpreted.
    init(status: Int, error: GrantError?) {
        switch error {
        case nil: self = .ok
        case .providerRejected?: self = .providerError
        case .providerThrottled?: self = .rateLimited
        case _ where status >= 500: self = .serverError
        default: self = .invalidResponse
        }
    }
}
