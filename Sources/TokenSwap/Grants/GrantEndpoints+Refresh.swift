import HTTPCore
import Sealing

extension GrantEndpoints {
    /// `POST /v1/refresh`: a sealed refresh token for a new access token (RFC 6749 §6).
    /// A token that does not open is `invalid_grant` without calling the provider. The
    /// answer always carries a refresh token: the rotated one sealed, or else the
    /// client's own (resealed under the active key if an older key opened it, so old
    /// keys drain away; otherwise byte-for-byte what the client sent).
    ///
    /// Answers by callback (`Endpoint.Responder`): the hot path of the service, it runs
    /// without a task when the provider call exchanges in place.
    public func refresh(
        _ request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        guard
            let fields = Self.decodedFields(
                request, provider: provider, grant: "refresh_token", completion)
        else { return }
        refresh(fields: fields, request: request, provider: provider, completion: completion)
    }

    /// The refresh for already decoded fields (also the `refresh_token` grant of the token
    /// endpoint, CONTRACT §8, which decodes its body once). `request` is read for the
    /// client's address (the legacy failure limit), not for its body.
    func refresh(
        fields: TokenRequestFields, request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        let finish = Self.answering(provider: provider, grant: "refresh_token", completion)
        let sealed: String
        let opened: OpenedToken
        let legacyFormat: LegacyFormat?
        let raw: String
        do throws(GrantError) {
            guard let value = fields["refresh_token"] else {
                throw .invalidRequest("refresh_token is missing")
            }
            sealed = value
            (opened, legacyFormat) = try openRefreshToken(sealed, for: provider, from: request)
            guard let text = opened.plaintextString else {
                metrics.sealingFailed(.open, reason: "not_utf8")
                throw .unopenableToken
            }
            raw = text
        } catch {
            return finish(.failure(error))
        }
        // The token opened and passed every check a repeat must pass too; checks added
        // later (a proof of possession, a revoked grant) go here, before the replay.
        replaying(
            replayKey(sealed, provider: provider), provider: provider,
            call: { [self] done in
                callRefresh(
                    raw, sealed: sealed, sealedWithActiveKey: opened.sealedWithActiveKey,
                    legacyFormat: legacyFormat, provider: provider, request: request,
                    completion: done)
            },
            replayed: { [self] result in
                // A replayed answer to a legacy token settles the allowance its open took
                // as the first refresh did (`settledLegacyRefresh`): kept after a refusal,
                // given back after anything else.
                guard legacyFormat != nil else { return }
                if case .failure(let error) = result, error.status.code == 400 { return }
                legacyFailureLimit?.giveBack(for: request)
            }, completion: finish)
    }

    /// The provider call of a refresh whose token opened as `raw`, and the answer sealed.
    private func callRefresh(
        _ raw: String, sealed: String, sealedWithActiveKey: Bool, legacyFormat: LegacyFormat?,
        provider: Provider, request: HTTPRequest,
        completion finish: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) {
        let interpret: @Sendable (HTTPResponse) throws(GrantError) -> ProviderTokenResponse
        if legacyFormat == nil {
            interpret = { (answer) throws(GrantError) in
                try provider.dialect.interpretToken(answer)
            }
        } else {
            interpret = { (answer) throws(GrantError) in
                try Self.interpretLegacyRefresh(answer, provider: provider)
            }
        }
        exchange(.refreshToken(raw), with: provider, interpret: interpret) { [self] exchanged in
            let result = Result { () throws(GrantError) in
                let tokens = try exchanged.get()
                let answer: String
                if let rotated = tokens.refreshToken, rotated != raw {
                    answer = try seal(rotated, for: provider)
                } else if sealedWithActiveKey {
                    answer = sealed
                } else {
                    answer = try seal(raw, for: provider)
                }
                return Self.success(tokens, refreshToken: answer)
            }
            guard let legacyFormat else { return finish(result) }
            finish(
                settledLegacyRefresh(
                    result, format: legacyFormat, provider: provider, request: request))
        }
    }

    /// A refresh request's token: natively, else by the provider's legacy decoders
    /// (CONTRACT §9), with the format that opened it (nil: the key ring did).
    func openRefreshToken(_ sealed: String, for provider: Provider, from request: HTTPRequest)
        throws(GrantError) -> (opened: OpenedToken, legacy: LegacyFormat?)
    {
        if let opened = try openNatively(sealed, for: provider, kind: .refreshToken) {
            return (opened, nil)
        }
        guard !provider.legacyDecoders.isEmpty else {
            metrics.sealingFailed(.open, reason: "invalid_token")
            throw .unopenableToken
        }
        let (opened, format) = try openLegacyRefreshToken(sealed, for: provider, from: request)
        return (opened, format)
    }
}
