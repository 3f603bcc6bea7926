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
    /// client's address (the legacy failure limit) and its DPoP proof, not for its body.
    ///
    /// CONTRACT §13: a token bound to a key refreshes only with a valid proof by that key
    /// (else `invalid_grant`, no provider call) and comes back bound to it; an unbound
    /// token refreshed with a valid proof comes back bound to the proof's key. A token
    /// sealed before the current layout comes back in it.
    func refresh(
        fields: TokenRequestFields, request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        provingDPoP(request, provider: provider, completion: completion) {
            [self] inspection, completion in
            refresh(
                fields: fields, request: request, provider: provider, inspection: inspection,
                completion: completion)
        }
    }

    private func refresh(
        fields: TokenRequestFields, request: HTTPRequest, provider: Provider,
        inspection: DPoPInspection?, completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        let finish = Self.answering(provider: provider, grant: "refresh_token", completion)
        let sealed: String
        let opened: OpenedToken
        let legacyFormat: LegacyFormat?
        let raw: String
        let binding: [UInt8]?
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
            binding = try dpopBinding(
                inspection, bound: opened.grant?.thumbprint, provider: provider)
        } catch {
            return finish(.failure(error))
        }
        // The token opened and its proof (if any) passed; the checks a repeat must pass too
        // come before the replay: a grant that has ended (CONTRACT §14) is refused even
        // inside the window.
        checkGrant(
            opened, sealed: sealed, provider: provider,
            failed: { error in
                // A legacy token's failures are all one answer, byte for byte (CONTRACT §9).
                finish(.failure(legacyFormat == nil ? error : .unopenableToken))
            }
        ) { [self] in
            replaying(
                replayKey(sealed, opened: opened.sealIdentity, provider: provider),
                provider: provider,
                call: { [self] done in
                    // Reuse is judged only when the window has no answer for the token: a
                    // repeat inside it is a retry (CONTRACT §14).
                    checkGeneration(
                        opened, raw: raw, provider: provider, failed: { done(.failure($0)) }
                    ) { [self] in
                        callRefresh(
                            raw, sealed: sealed, opened: opened, binding: binding,
                            legacyFormat: legacyFormat, provider: provider, request: request,
                            completion: done)
                    }
                },
                replayed: { [self] result in
                    // A replayed answer to a legacy token settles the allowance its open
                    // took as the first refresh did (`settledLegacyRefresh`): kept after a
                    // refusal, given back after anything else.
                    guard legacyFormat != nil else { return }
                    if case .failure(let error) = result, error.status.code == 400 { return }
                    legacyFailureLimit?.giveBack(for: request)
                }, completion: finish)
        }
    }

    /// The provider call of a refresh whose token opened as `raw`, and the answer sealed:
    /// the provider's rotated token, or else the client's own, as the next generation of
    /// its family (a new family for a token without one, CONTRACT §14) bound to `binding`
    /// (§13). The same text goes back only when nothing it seals would change: the active
    /// key, the current layout, the same binding, and no generation to count (§2).
    private func callRefresh(
        _ raw: String, sealed: String, opened: OpenedToken, binding: [UInt8]?,
        legacyFormat: LegacyFormat?, provider: Provider, request: HTTPRequest,
        completion finish: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) {
        let unchanged =
            opened.sealedWithActiveKey && !needsNewSeal(opened, provider: provider)
            && opened.grant?.thumbprint == binding
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
            let result = Result { () throws(GrantError) -> (HTTPResponse, SealedGrant?) in
                let tokens = try exchanged.get()
                let rotated = tokens.refreshToken.flatMap { $0 == raw ? nil : $0 }
                if rotated == nil, unchanged {
                    let response = Self.success(
                        withLifetime(tokens, grant: opened.grant, provider: provider),
                        refreshToken: sealed)
                    return (response, opened.grant)
                }
                let grant = try refreshedGrant(opened, thumbprint: binding)
                let answer = try seal(rotated ?? raw, for: provider, grant: grant)
                let response = Self.success(
                    withLifetime(tokens, grant: grant, provider: provider), refreshToken: answer)
                return (response, grant)
            }
            let answered = result.map(\.0)
            let settled =
                if let legacyFormat {
                    settledLegacyRefresh(
                        answered, format: legacyFormat, provider: provider, request: request)
                } else {
                    answered
                }
            // The answer's generation is the family's newest before the client has it.
            guard case .success((_, let grant?)) = result else { return finish(settled) }
            recordGeneration(grant, provider: provider) { finish(settled) }
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
