import HTTPCore

#if canImport(Glibc)
    import Glibc
#endif

extension LifecycleEndpoints {
    /// `POST /v1/<name>/introspect` (RFC 7662's answer shape, CONTRACT §8): the provider
    /// is asked per its introspection style and the answer normalised. A sealed refresh
    /// token is never refreshed to find out: it is asked about as a refresh token where
    /// the style can (RFC 7662), else as the access token it may be, which the provider
    /// answers inactive (CONTRACT §8: the same call for a genuine and a random token; no
    /// counter moves on opening). Served only for providers that introspect;
    /// limited per client on top of the service-wide limit (RFC 7662 §4, token scanning).
    package func introspect(_ request: HTTPRequest, provider: Provider) async -> EndpointAnswer {
        await GrantAnswer.answer(provider: provider, grant: "introspect") {
            () async throws(GrantError) in
            try await takeAllowance(request)
            let token = try Self.lifecycleToken(in: request)
            let result: IntrospectionResult
            do throws(GrantError) {
                result = try await introspection(
                    of: introspectedKind(token, provider: provider), provider: provider)
            } catch {
                metrics.introspection(provider: provider.name, outcome: "failed")
                throw error
            }
            metrics.introspection(provider: provider.name, outcome: result.label)
            return result.response
        }
    }

    /// RFC 7662 §4 (token scanning): each client has its share of introspections.
    private func takeAllowance(_ request: HTTPRequest) async throws(GrantError) {
        guard let introspectionLimit,
            case .limited(let seconds) = await introspectionLimit.take(for: request)
        else { return }
        metrics.rejected(.rateLimited)
        throw .rateLimited(retryAfterSeconds: seconds)
    }

    /// What the provider is asked about: a sealed refresh token as the refresh token it
    /// holds where the style knows refresh tokens, else the value as an access token.
    private func introspectedKind(_ token: String, provider: Provider) throws(GrantError)
        -> LifecycleToken
    {
        guard provider.lifecycle.introspectionStyle.knowsRefreshTokens else {
            return .accessToken(token)
        }
        return try lifecycleToken(token, for: provider)
    }

    private func introspection(of token: LifecycleToken, provider: Provider)
        async throws(GrantError) -> IntrospectionResult
    {
        guard let request = provider.introspectionRequest(for: token) else { return .inactive }
        return try await upstream.call(provider, request) { [clock] (answer) throws(GrantError) in
            try provider.introspectionResult(answer, now: Int(clock.now()))
        }
    }
}
