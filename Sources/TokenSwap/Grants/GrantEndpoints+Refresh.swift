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
        let attempt: RefreshAttempt
        do throws(GrantError) {
            guard let sealed = fields["refresh_token"] else {
                throw .invalidRequest("refresh_token is missing")
            }
            let (opened, legacyFormat) = try openRefreshToken(sealed, for: provider, from: request)
            guard let raw = opened.plaintextString else {
                metrics.sealingFailed(.open, reason: "not_utf8")
                throw .unopenableToken
            }
            let binding = try dpopBinding(
                inspection, bound: opened.grant?.thumbprint, provider: provider)
            attempt = RefreshAttempt(
                endpoints: self, provider: provider, request: request, sealed: sealed,
                opened: opened, family: try families.family(of: opened, provider: provider), raw: raw,
                legacyFormat: legacyFormat, binding: binding, finish: finish)
        } catch {
            return finish(.failure(error))
        }
        // The token opened and its proof (if any) passed; the checks a repeat must pass too
        // come before the replay: a grant that has ended (CONTRACT §14) is refused even
        // inside the window.
        let earlierRecord = attempt.opened.grant == nil && attempt.legacyFormat == nil
        families.checkGrant(
            attempt.family, sealedWithoutFamily: earlierRecord ? attempt.sealed : nil,
            provider: provider, failed: { attempt.refused($0) }, next: { attempt.replay() })
    }

    /// A refresh request's token: natively, else by the provider's legacy decoders
    /// (CONTRACT §9), with the format that opened it (nil: the key ring did).
    func openRefreshToken(_ sealed: String, for provider: Provider, from request: HTTPRequest)
        throws(GrantError) -> (opened: OpenedToken, legacy: LegacyFormat?)
    {
        if let opened = try sealer.openNatively(sealed, for: provider, kind: .refreshToken) {
            return (opened, nil)
        }
        guard !provider.legacyDecoders.isEmpty else {
            metrics.sealingFailed(.open, reason: "invalid_token")
            throw .unopenableToken
        }
        let (opened, format) = try legacy.openRefreshToken(sealed, for: provider, from: request)
        return (opened, format)
    }
}

/// One refresh on its way through the replay window and the provider call
/// (`GrantEndpoints.refresh`): what its token opened as and what every step reads, in one
/// object. Each step's callback then holds this one reference, where a closure per step
/// copied (and retained) the token, the request and the rest into a context of its own
/// (BENCHMARKS.md, session 13).
private final class RefreshAttempt: Sendable {
    let endpoints: GrantEndpoints
    let provider: Provider
    /// Read for the client's address (the legacy failure limit), not for its body.
    let request: HTTPRequest
    let sealed: String
    let opened: OpenedToken
    /// Its grant family (CONTRACT §14): sealed with it, or derived from it for a token
    /// sealed without one (`GrantEndpoints.family(of:provider:)`).
    let family: SealedGrant
    /// The provider's refresh token, as the sealed one opened.
    let raw: String
    /// The legacy format that opened it (CONTRACT §9); nil: the key ring did.
    let legacyFormat: LegacyFormat?
    /// The thumbprint the answer is bound to (CONTRACT §13).
    let binding: [UInt8]?
    let finish: @Sendable (Result<HTTPResponse, GrantError>) -> Void

    init(
        endpoints: GrantEndpoints, provider: Provider, request: HTTPRequest, sealed: String,
        opened: OpenedToken, family: SealedGrant, raw: String, legacyFormat: LegacyFormat?,
        binding: [UInt8]?, finish: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) {
        self.endpoints = endpoints
        self.provider = provider
        self.request = request
        self.sealed = sealed
        self.opened = opened
        self.family = family
        self.raw = raw
        self.legacyFormat = legacyFormat
        self.binding = binding
        self.finish = finish
    }

    /// A refusal before the replay window: a legacy token's failures are all one answer,
    /// byte for byte (CONTRACT §9).
    func refused(_ error: GrantError) {
        finish(.failure(legacyFormat == nil ? error : .unopenableToken))
    }

    /// The kept answer, the answer of the call in flight, or the provider call
    /// (CONTRACT §12).
    func replay() {
        endpoints.replay.replaying(
            endpoints.replay.key(sealed, opened: opened.sealIdentity, provider: provider),
            provider: provider, provedBy: binding, call: { done in self.call(done) },
            replayed: { self.replayed($0) }, completion: finish)
    }

    /// A replayed answer to a legacy token settles the allowance its open took as the
    /// first refresh did (`LegacyTokens.settledRefresh`): kept after a refusal, given back after
    /// anything else.
    private func replayed(_ result: Result<HTTPResponse, GrantError>) {
        guard legacyFormat != nil else { return }
        if case .failure(let error) = result, error.status.code == 400 { return }
        endpoints.legacy.failureLimit?.giveBack(for: request)
    }

    /// What the window calls when it has no answer for the token. Reuse is judged only
    /// then: a repeat inside the window is a retry (CONTRACT §14).
    private func call(_ done: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void) {
        guard endpoints.families.detectsReuse(at: provider) else { return callProvider(done) }
        endpoints.families.checkGeneration(
            family, raw: raw, provider: provider, failed: { done(.failure($0)) }
        ) { self.callProvider(done) }
    }

    /// The provider call, and the answer sealed: the provider's rotated token, or else the
    /// client's own, as the next generation of its family (the derived one for a token
    /// sealed without one, CONTRACT §14) bound to `binding` (§13). The same text goes back only when
    /// nothing it seals would change: the active key, the current layout, the same binding,
    /// and no generation to count (§2).
    private func callProvider(
        _ done: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) {
        let provider = provider
        let interpret: @Sendable (HTTPResponse) throws(GrantError) -> ProviderTokenResponse
        if legacyFormat == nil {
            interpret = { (answer) throws(GrantError) in
                try provider.dialect.interpretToken(answer)
            }
        } else {
            interpret = { (answer) throws(GrantError) in
                try LegacyTokens.interpretRefresh(answer, provider: provider)
            }
        }
        endpoints.upstream.exchange(.refreshToken(raw), with: provider, interpret: interpret) {
            exchanged in
            self.answer(exchanged, done)
        }
    }

    /// The answer to the client, from what the provider answered.
    private func answer(
        _ exchanged: Result<ProviderTokenResponse, GrantError>,
        _ done: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) {
        let unchanged =
            opened.sealedWithActiveKey && !endpoints.families.needsNewSeal(opened, provider: provider)
            && opened.grant?.thumbprint == binding
        let result = Result { () throws(GrantError) -> (HTTPResponse, SealedGrant?) in
            let tokens = try exchanged.get()
            let rotated = tokens.refreshToken.flatMap { $0 == raw ? nil : $0 }
            if rotated == nil, unchanged {
                let response = GrantEndpoints.success(
                    endpoints.families.withLifetime(tokens, grant: opened.grant, provider: provider),
                    refreshToken: sealed)
                return (response, opened.grant)
            }
            let grant = try endpoints.families.refreshedGrant(family, thumbprint: binding)
            let answer = try endpoints.sealer.seal(rotated ?? raw, for: provider, grant: grant)
            let response = GrantEndpoints.success(
                endpoints.families.withLifetime(tokens, grant: grant, provider: provider),
                refreshToken: answer)
            return (response, grant)
        }
        let answered = result.map(\.0)
        let settled =
            if let legacyFormat {
                endpoints.legacy.settledRefresh(
                    answered, format: legacyFormat, provider: provider, request: request)
            } else {
                answered
            }
        // The answer's generation is the family's newest before the client has it.
        guard endpoints.families.detectsReuse(at: provider), case .success((_, let grant?)) = result
        else { return done(settled) }
        endpoints.families.recordGeneration(grant, provider: provider) { done(settled) }
    }
}
