import HTTPClient
import HTTPCore

/// The calls to the provider: one send over the transport, a failed exchange turned into
/// CONTRACT §2's row, the answer interpreted, the outcome counted.
extension GrantEndpoints {
    /// Sends `grant` to the provider's token endpoint and interprets the answer, by
    /// callback: no task when the transport exchanges in place (an idle pooled connection
    /// of the caller's loop).
    func exchange(
        _ grant: TokenGrant, with provider: Provider,
        completion: @escaping @Sendable (Result<ProviderTokenResponse, GrantError>) -> Void
    ) {
        exchange(
            grant, with: provider,
            interpret: { (answer) throws(GrantError) in
                try provider.dialect.interpretToken(answer)
            }, completion: completion)
    }

    /// `exchange`, with the provider's answer read by `interpret` (a legacy-opened refresh
    /// token reads refusals its own way, CONTRACT §9).
    func exchange(
        _ grant: TokenGrant, with provider: Provider,
        interpret:
            @escaping @Sendable (HTTPResponse) throws(GrantError) ->
            ProviderTokenResponse,
        completion: @escaping @Sendable (Result<ProviderTokenResponse, GrantError>) -> Void
    ) {
        exchange(
            provider.tokenRequest(for: grant), with: provider, interpret: interpret,
            completion: completion)
    }

    /// The one call to one of the provider's endpoints: a failed exchange becomes
    /// CONTRACT §2's row, the answer goes through `interpret`, and the outcome is counted;
    /// answered by callback, in place when the transport exchanges in place.
    func exchange<Answer>(
        _ request: HTTPClientRequest, with provider: Provider,
        interpret: @escaping @Sendable (HTTPResponse) throws(GrantError) -> Answer,
        completion: @escaping @Sendable (Result<Answer, GrantError>) -> Void
    ) {
        transport.send(request, timeoutSeconds: upstreamTimeoutSeconds) { [self] result in
            completion(
                Result { () throws(GrantError) in
                    let answer = try arrived(result, from: provider)
                    return try interpreted(answer, from: provider, interpret)
                })
        }
    }

    /// `exchange`, awaited: for the endpoints that run in a task (device authorization
    /// and polls, introspection).
    func call<Answer: Sendable>(
        _ provider: Provider, _ request: HTTPClientRequest,
        interpret: @escaping @Sendable (HTTPResponse) throws(GrantError) -> Answer
    ) async throws(GrantError) -> Answer {
        try await withCheckedContinuation { continuation in
            exchange(request, with: provider, interpret: interpret) {
                continuation.resume(returning: $0)
            }
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
