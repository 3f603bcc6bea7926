import HTTPCore
import Sealing

extension LifecycleEndpoints {
    /// `POST /v1/<name>/revoke` (RFC 7009, CONTRACT §8, §14): a token that opens as this
    /// provider's sealed refresh token (natively or by one of its legacy formats, §9) has its
    /// grant family recorded as revoked (tokenswap's own revocation: every token of the
    /// family is refused from then on), and is revoked upstream as a refresh token where the
    /// provider's style has an API; anything else goes upstream as an access token. `200 {}`
    /// whether the provider revoked it or calls it invalid, and for a token that does not
    /// open (§2.2: no oracle); `503` with `Retry-After` when the provider failed (§2.2.1).
    ///
    /// Nothing the client sees depends on whether the token opened: the
    /// `Tokenswap-Revocation` header follows the provider's style alone (`broker` for style
    /// `none`, `forwarded` otherwise), a value that does not open makes the same kind of
    /// store call (a lookup of its own key) as one that does (a record), every style that
    /// has a provider API calls it for every token (a value its API cannot take goes as the
    /// kind it can, and the provider calls it invalid), and opening moves no counter.
    package func revoke(_ request: HTTPRequest, provider: Provider) async -> EndpointAnswer {
        await GrantAnswer.answer(provider: provider, grant: "revoke") {
            () async throws(GrantError) in
            let token = try Self.lifecycleToken(in: request)
            let opened = try revocationToken(token, for: provider)
            try await families.revoke(
                opened?.native == true ? opened?.token : nil, sealed: token, provider: provider)
            return try await revokedUpstream(
                Self.revocationKind(of: token, opened: opened?.token, provider: provider),
                provider: provider)
        }
    }

    /// What the provider is asked to revoke: the raw refresh token of a token that opened,
    /// where its style revokes refresh tokens; else the value as sent, as an access token.
    private static func revocationKind(
        of token: String, opened: OpenedToken?, provider: Provider
    ) -> LifecycleToken {
        switch opened?.plaintextString {
        case let raw? where provider.lifecycle.revocationStyle.revokesRefreshTokens:
            .refreshToken(raw)
        default: .accessToken(token)
        }
    }

    /// The provider's revocation in its style, and the answer: `200 {}` whether it revoked
    /// the token or calls it invalid, `503` with `Retry-After` when it failed; with style
    /// `none` the broker's record alone is the revocation.
    private func revokedUpstream(_ kind: LifecycleToken, provider: Provider)
        async throws(GrantError) -> HTTPResponse
    {
        guard let request = provider.revocationRequest(for: kind) else {
            // Style `none` (Spotify has no revocation API): the broker's record is the
            // revocation (CONTRACT §14).
            metrics.revocation(provider: provider.name, .broker)
            return Self.revocationAnswer("broker")
        }
        let outcome: ProviderRevocationOutcome
        do {
            outcome = ProviderRevocationOutcome.interpret(
                try await upstream.transport.send(
                    request, timeoutSeconds: upstream.timeoutSeconds),
                style: provider.lifecycle.revocationStyle)
        } catch {
            // Unreachable or too slow: the token may be live (§2.2.1).
            outcome = .failed(
                retryAfterSeconds: ProviderRevocationOutcome.defaultRetryAfterSeconds)
        }
        metrics.revocation(provider: provider.name, outcome)
        switch outcome {
        case .revoked, .invalid, .broker: return Self.revocationAnswer("forwarded")
        case .failed(let seconds): throw .revocationUnavailable(retryAfterSeconds: seconds)
        }
    }

    /// The `token` of a revocation or introspection request (RFC 7009 §2.1, RFC 7662 §2.1).
    static func lifecycleToken(in request: HTTPRequest) throws(GrantError) -> String {
        let fields = try TokenRequestFields.decode(
            request, reading: TokenRequestFields.lifecycleNames)
        guard let token = fields["token"] else { throw .invalidRequest("token is missing") }
        return token
    }

    /// RFC 7009 §2.2: `200` with an empty JSON object.
    static func revocationAnswer(_ disposition: String) -> HTTPResponse {
        var headers = TokenResponseHeaders.base
        headers.add(name: "Tokenswap-Revocation", value: disposition)
        return HTTPResponse(status: .ok, headers: headers, body: Array("{}".utf8))
    }

    /// What the client sent, as the provider is to see it: the raw refresh token when it
    /// opens as this provider's sealed one, else the value itself as an access token. A
    /// sealed token that does not open (tampered, another provider's) thus goes upstream
    /// as an "access token" the provider does not know, and is answered like any invalid
    /// token. Only a crypto library that stopped working is an error. Not `open(_:for:)`:
    /// opening here counts nothing (CONTRACT §8: the metrics must not tell a genuine token
    /// from a random one), and an access token in clear is the usual case, not a failure.
    func lifecycleToken(_ token: String, for provider: Provider) throws(GrantError)
        -> LifecycleToken
    {
        do {
            let opened = try keyRing.open(token, context: TokenSealer.context(provider))
            guard let raw = opened.plaintextString else { return .accessToken(token) }
            return .refreshToken(raw)
        } catch .invalidToken {
            return .accessToken(token)
        } catch {
            metrics.sealingFailed(.open, reason: "crypto_unavailable")
            throw .temporarilyUnavailable(reason: "opening failed: \(error)")
        }
    }

    /// The sealed refresh token a revocation names, opened by the key ring (`native`) and
    /// then by the provider's legacy formats (CONTRACT §9: a token an app kept from the old
    /// swap service is revoked upstream as the refresh token it holds, so signing out works
    /// before the app's first refresh has moved it over); nil for anything else (an access
    /// token, a value that does not open). Counts nothing (CONTRACT §8: the metrics must not
    /// tell a genuine token from a random one); only a crypto library that stopped working
    /// is an error.
    func revocationToken(_ token: String, for provider: Provider) throws(GrantError)
        -> (token: OpenedToken, native: Bool)?
    {
        do {
            let opened = try keyRing.open(token, context: TokenSealer.context(provider))
            return opened.plaintextString == nil ? nil : (opened, true)
        } catch .invalidToken {
            guard let opened = legacy.open(token, for: provider), opened.plaintextString != nil
            else { return nil }
            return (opened, false)
        } catch {
            metrics.sealingFailed(.open, reason: "crypto_unavailable")
            throw .temporarilyUnavailable(reason: "opening failed: \(error)")
        }
    }
}
