import HTTPCore
import Sealing

/// `POST /v1/refresh`: a sealed refresh token for a new access token (RFC 6749 §6). Its
/// steps: decode the fields, inspect the proof (CONTRACT §13), open the token (natively, or
/// by the provider's legacy decoders, §9), decide its binding and its family (§14), then
/// the attempt (`RefreshAttempt`): the ended-grant checks, the replay window (§12), reuse
/// detection, the provider call, and the answer sealed.
///
/// A token that does not open is `invalid_grant` without calling the provider. The answer
/// always carries a refresh token: the rotated one sealed, or else the client's own
/// (resealed under the active key if an older key opened it, so old keys drain away;
/// otherwise byte-for-byte what the client sent).
///
/// Answers by callback (`Endpoint.Responder`): the hot path of the service, it runs
/// without a task when the provider call exchanges in place.
final class RefreshGrant: CallbackGrant {
    static let outcomeName = "refresh_token"

    let proof: GrantProof
    let sealer: TokenSealer
    /// Other swap services' tokens during a migration (CONTRACT §9).
    let legacy: LegacyTokens
    let families: GrantFamilies
    let replay: ReplayWindow
    let upstream: ProviderCall
    let metrics: ServiceMetrics

    init(
        proof: GrantProof, sealer: TokenSealer, legacy: LegacyTokens, families: GrantFamilies,
        replay: ReplayWindow, upstream: ProviderCall, metrics: ServiceMetrics
    ) {
        self.proof = proof
        self.sealer = sealer
        self.legacy = legacy
        self.families = families
        self.replay = replay
        self.upstream = upstream
        self.metrics = metrics
    }

    /// The refresh for already decoded fields (also the `refresh_token` grant of the token
    /// endpoint, CONTRACT §8, which decodes its body once). `request` is read for the
    /// client's address (the legacy failure limit) and its DPoP proof, not for its body.
    ///
    /// CONTRACT §13: a token bound to a key refreshes only with a valid proof by that key
    /// (else `invalid_grant`, no provider call) and comes back bound to it; an unbound
    /// token refreshed with a valid proof comes back bound to the proof's key. A token
    /// sealed before the current layout comes back in it.
    func answer(
        fields: TokenRequestFields, request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        proof.proving(request, provider: provider, completion: completion) {
            [self] inspection, completion in
            let attempt: RefreshAttempt
            do throws(GrantError) {
                attempt = try opened(
                    fields, request: request, provider: provider, inspection: inspection,
                    respond: completion)
            } catch {
                return completion(
                    GrantAnswer.answer(.failure(error), provider: provider, grant: Self.outcomeName))
            }
            attempt.checkGrant()
        }
    }

    /// The presented token opened, its binding decided and its family found: the attempt
    /// that carries them through the remaining steps.
    private func opened(
        _ fields: TokenRequestFields, request: HTTPRequest, provider: Provider,
        inspection: DPoPInspection?, respond: @escaping @Sendable (EndpointAnswer) -> Void
    ) throws(GrantError) -> RefreshAttempt {
        guard let sealed = fields["refresh_token"] else {
            throw .invalidRequest("refresh_token is missing")
        }
        let (opened, legacyFormat) = try openRefreshToken(sealed, for: provider, from: request)
        guard let raw = opened.plaintextString else {
            metrics.sealingFailed(.open, reason: "not_utf8")
            throw .unopenableToken
        }
        let binding = try proof.binding(
            inspection, bound: opened.grant?.thumbprint, provider: provider)
        return RefreshAttempt(
            refresh: self, provider: provider, request: request, sealed: sealed, opened: opened,
            family: try families.family(of: opened, provider: provider), raw: raw,
            legacyFormat: legacyFormat, binding: binding, respond: respond)
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
