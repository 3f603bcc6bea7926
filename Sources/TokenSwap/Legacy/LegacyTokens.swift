import HTTPCore
import Sealing

/// Other swap services' refresh tokens during a migration (CONTRACT §9), a collaborator of
/// the refresh and revocation: opening them by the provider's legacy decoders, the
/// client's allowance of failed legacy opens, and the answer to a legacy-opened refresh.
final class LegacyTokens: Sendable {
    /// Failed legacy opens per client (`TOKENSWAP_LEGACY_FAILURE_LIMIT`, CONTRACT §9:
    /// unauthenticated formats can be probed); nil: off.
    let failureLimit: ClientRateLimit?
    let metrics: ServiceMetrics

    init(failureLimit: ClientRateLimit?, metrics: ServiceMetrics) {
        self.failureLimit = failureLimit
        self.metrics = metrics
    }

    /// A refresh token the key ring cannot open, tried against the provider's legacy
    /// formats in the configured order (CONTRACT §9). Not sealed with the active key, so
    /// the refresh answer reseals it natively and the client moves over on its own.
    /// Counts nothing: a refresh counts a legacy token once it has refreshed.
    func open(_ token: String, for provider: Provider) -> OpenedToken? {
        openWithFormat(token, for: provider)?.opened
    }

    /// `openLegacy`, with the format that opened the token.
    private func openWithFormat(_ token: String, for provider: Provider)
        -> (opened: OpenedToken, format: LegacyFormat)?
    {
        guard !provider.legacyDecoders.isEmpty else { return nil }
        let shape = RefreshTokenShape(provider.preset)
        for decoder in provider.legacyDecoders {
            guard let plaintext = decoder.open(token, shape: shape) else { continue }
            let opened = OpenedToken(
                plaintext: plaintext, keyID: "legacy-\(decoder.format.rawValue)",
                sealedWithActiveKey: false)
            return (opened, decoder.format)
        }
        return nil
    }

    /// A refresh request's token that did not open natively, on a provider with legacy
    /// decoders (CONTRACT §9). Unauthenticated formats can be probed, so the client's
    /// allowance of failed legacy opens (`TOKENSWAP_LEGACY_FAILURE_LIMIT`) is taken first
    /// and a spent one is `429` before any decoding. A token no decoder opens is the same
    /// `invalid_grant` as one that does not open at all and keeps the allowance it took;
    /// one that opens goes upstream, and `settledRefresh` gives the allowance back
    /// unless the provider refused it.
    func openRefreshToken(_ token: String, for provider: Provider, from request: HTTPRequest)
        throws(GrantError) -> (opened: OpenedToken, format: LegacyFormat)
    {
        if let failureLimit, case .limited(let seconds) = failureLimit.take(for: request)
        {
            metrics.rejected(.rateLimited)
            throw .rateLimited(retryAfterSeconds: seconds)
        }
        guard let opened = openWithFormat(token, for: provider) else {
            metrics.sealingFailed(.open, reason: "invalid_token")
            throw .unopenableToken
        }
        return opened
    }

    /// How the provider's answer to a legacy-opened token is read: any 4xx but 429 is a
    /// refusal, whatever its body, so that `settledRefresh` answers it as a token
    /// that does not open. A 429 and everything else read as for any refresh token
    /// (CONTRACT §2: transient failures stay transient).
    static func interpretRefresh(_ answer: HTTPResponse, provider: Provider)
        throws(GrantError) -> ProviderTokenResponse
    {
        let code = answer.status.code
        if (400..<500).contains(code), code != 429 {
            throw .providerRejected(status: answer.status, body: [])
        }
        return try provider.dialect.interpretToken(answer)
    }

    /// The answer to a refresh of a legacy-opened token (CONTRACT §9). A refusal by the
    /// provider (any 4xx but 429, or an OAuth error in a 2xx) becomes the very
    /// `invalid_grant` of a token that does not open: its own body would tell an attacker
    /// that the plaintext passed the shape check. It is a failed legacy open and keeps
    /// the allowance taken; every other outcome gives it back. A `200` counts the token
    /// in `tokenswap_legacy_tokens_opened_total`, which shows when the setting can go.
    func settledRefresh(
        _ result: Result<HTTPResponse, GrantError>, format: LegacyFormat,
        provider: Provider, request: HTTPRequest
    ) -> Result<HTTPResponse, GrantError> {
        switch result {
        case .failure(.providerRejected):
            return .failure(.unopenableToken)
        case .success:
            metrics.legacyOpened(provider: provider.name, format: format)
            failureLimit?.giveBack(for: request)
            return result
        case .failure:
            failureLimit?.giveBack(for: request)
            return result
        }
    }
}
