import HTTPClient
import HTTPCore
import Logging
import Sealing
import Transport

/// The calls to the provider, a collaborator of every grant: one send over the transport,
/// a failed exchange turned into CONTRACT §2's row, the answer interpreted, the outcome
/// counted and a failure logged.
final class ProviderCall: Sendable {
    let transport: any UpstreamTransport
    /// `TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS`: the whole exchange (CONTRACT §5).
    let timeoutSeconds: Double
    let metrics: ServiceMetrics
    let logger: Logger

    init(
        transport: any UpstreamTransport, timeoutSeconds: Double, metrics: ServiceMetrics,
        logger: Logger
    ) {
        self.transport = transport
        self.timeoutSeconds = timeoutSeconds
        self.metrics = metrics
        self.logger = logger
    }

    /// Sends `grant` to the provider's token endpoint, reads the answer in the provider's
    /// dialect, and hands the tokens to `answer`, the grant's own step (sealing what goes
    /// back), by callback: no task when the transport exchanges in place (an idle pooled
    /// connection of the caller's loop).
    func exchange<Answer>(
        _ grant: TokenGrant, with provider: Provider,
        then answer: @escaping @Sendable (ProviderTokenResponse) throws(GrantError) -> Answer,
        completion: @escaping @Sendable (Result<Answer, GrantError>) -> Void
    ) {
        exchange(
            grant, with: provider,
            interpret: { (answer) throws(GrantError) in
                try provider.dialect.interpretToken(answer)
            }, then: answer, completion: completion)
    }

    /// `exchange`, with the provider's answer read by `interpret` (a legacy-opened refresh
    /// token reads refusals its own way, CONTRACT §9).
    func exchange<Answer>(
        _ grant: TokenGrant, with provider: Provider,
        interpret:
            @escaping @Sendable (HTTPResponse) throws(GrantError) ->
            ProviderTokenResponse,
        then answer: @escaping @Sendable (ProviderTokenResponse) throws(GrantError) -> Answer,
        completion: @escaping @Sendable (Result<Answer, GrantError>) -> Void
    ) {
        exchange(
            provider.tokenRequest(for: grant), with: provider, interpret: interpret,
            then: answer, completion: completion)
    }

    /// The one call to one of the provider's endpoints: a failed exchange becomes
    /// CONTRACT §2's row, the answer goes through `interpret`, and the outcome is counted
    /// (`send`, then `read`); then what was read goes through `answer` (the caller's step,
    /// whose failures are not the provider's outcome) to `completion`, answered in place
    /// when the transport exchanges in place. The caller's step runs inside this call's one
    /// callback, so the answer climbs back through no closure of the caller's before
    /// `completion`.
    func exchange<Read, Answer>(
        _ request: HTTPClientRequest, with provider: Provider,
        interpret: @escaping @Sendable (HTTPResponse) throws(GrantError) -> Read,
        then answer: @escaping @Sendable (Read) throws(GrantError) -> Answer,
        completion: @escaping @Sendable (Result<Answer, GrantError>) -> Void
    ) {
        send(request) { [self] result in
            completion(
                Result { () throws(GrantError) in
                    try answer(read(result, from: provider, interpret: interpret))
                })
        }
    }

    /// Sends `request` to the provider over the transport, bounded by `timeoutSeconds`;
    /// `completion` (the caller's one callback) gets what the transport answered, to `read`.
    /// For a caller that carries its own state to the answer (the refresh attempt), so the
    /// answer reaches it with no callback of this type's between.
    func send(
        _ request: HTTPClientRequest,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        transport.send(request, timeoutSeconds: timeoutSeconds, completion: completion)
    }

    /// What the transport answered `send`, read: a failed exchange as CONTRACT §2's row,
    /// counted and logged; the provider's answer through `interpret`, its outcome counted.
    func read<Read>(
        _ result: Result<HTTPResponse, HTTPClientError>, from provider: Provider,
        interpret: (HTTPResponse) throws(GrantError) -> Read
    ) throws(GrantError) -> Read {
        try interpreted(arrived(result, from: provider), from: provider, interpret)
    }

    /// `exchange`, awaited: for the endpoints that run in a task (device authorization
    /// and polls, introspection).
    func call<Answer: Sendable>(
        _ provider: Provider, _ request: HTTPClientRequest,
        interpret: @escaping @Sendable (HTTPResponse) throws(GrantError) -> Answer
    ) async throws(GrantError) -> Answer {
        try await awaiting { completion in
            exchange(
                request, with: provider, interpret: interpret, then: { $0 }, completion: completion)
        }.get()
    }

    /// The provider's answer, or the failed exchange as CONTRACT §2's row, counted and
    /// logged.
    private func arrived(_ result: Result<HTTPResponse, HTTPClientError>, from provider: Provider)
        throws(GrantError) -> HTTPResponse
    {
        switch result {
        case .success(let answer):
            return answer
        case .failure(let error):
            let outcome = UpstreamOutcome(error)
            metrics.upstream(provider: provider.name, outcome)
            // The class of failure and the client's reason (an address, errno text, the
            // TLS verification result): never a token, code or secret, which the client
            // never puts in its errors.
            logger.warning(
                "provider call failed",
                metadata: [
                    "provider": "\(provider.name)", "outcome": "\(outcome.rawValue)",
                    "reason": "\(error)",
                ])
            throw GrantError(error)
        }
    }

    /// The provider's answer through `interpret`, the outcome counted.
    private func interpreted<Answer>(
        _ answer: HTTPResponse, from provider: Provider,
        _ interpret: (HTTPResponse) throws(GrantError) -> Answer
    ) throws(GrantError) -> Answer {
        do {
            let interpreted = try interpret(answer)
            metrics.upstream(provider: provider.name, .ok)
            return interpreted
        } catch {
            metrics.upstream(
                provider: provider.name, UpstreamOutcome(status: answer.status.code, error: error))
            throw error
        }
    }
}

/// The one call the handlers make to a provider, answered once by callback from any
/// thread: `HTTPClient` exchanges in place when an idle pooled connection of the caller's
/// loop is there; the sandbox and test doubles answer in process.
public protocol UpstreamTransport: Sendable {
    /// Sends `request` and answers with the provider's complete answer (any status), or
    /// what went wrong on the way; the whole exchange is bounded by `timeoutSeconds`.
    func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void)
}

extension UpstreamTransport {
    /// `send`, awaited: for the endpoints that run in a task (device authorization,
    /// revocation, introspection).
    package func send(_ request: HTTPClientRequest, timeoutSeconds: Double)
        async throws(HTTPClientError) -> HTTPResponse
    {
        try await awaiting { send(request, timeoutSeconds: timeoutSeconds, completion: $0) }.get()
    }
}

extension HTTPClient: UpstreamTransport {
    package func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        send(request, deadline: .after(seconds: timeoutSeconds), completion: completion)
    }
}

package enum TokenGrant: Sendable, Equatable, CustomStringConvertible {
    case authorizationCode(code: String, redirectURI: String, codeVerifier: String?)
    case refreshToken(String)

    package static let authorizationCodeType = "authorization_code"
    package static let refreshTokenType = "refresh_token"

    package var grantType: String {
        switch self {
        case .authorizationCode: Self.authorizationCodeType
        case .refreshToken: Self.refreshTokenType
        }
    }

    package var description: String { "TokenGrant(\(grantType))" }
}

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
    /// The exchange's deadline passed (in name lookup, connect, handshake or exchange).
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
