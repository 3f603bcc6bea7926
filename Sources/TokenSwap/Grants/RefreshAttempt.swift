import HTTPCore
import Sealing

/// One refresh on its way through the ended-grant checks, the replay window and the
/// provider call (`RefreshGrant`): what its token opened as and what every step reads, in
/// one object. Each step's callback then holds this one reference, where a closure per step
/// copied (and retained) the token, the request and the rest into a context of its own
/// (docs/perf-log, session 13). It answers the client itself (`answer`): the provider's
/// answer comes back through its one callback and then by method calls (the claim's
/// `keep`, the answer's shape), not through a callback per step.
final class RefreshAttempt: Sendable {
    /// The grant whose collaborators the steps call.
    let refresh: RefreshGrant
    let provider: Provider
    /// Read for the client's address (the legacy failure limit), not for its body.
    let request: HTTPRequest
    let sealed: String
    let opened: OpenedToken
    /// Its grant family (CONTRACT §14): sealed with it, or derived from it for a token
    /// sealed without one (`GrantFamilies.family(of:provider:)`).
    let family: SealedGrant
    /// The provider's refresh token, as the sealed one opened.
    let raw: String
    /// The legacy format that opened it (CONTRACT §9); nil: the key ring did.
    let legacyFormat: LegacyFormat?
    /// The thumbprint the answer is bound to (CONTRACT §13).
    let binding: [UInt8]?
    /// Where the endpoint's answer goes (the pipeline's, or the DPoP gate's around it).
    let respond: @Sendable (EndpointAnswer) -> Void

    init(
        refresh: RefreshGrant, provider: Provider, request: HTTPRequest, sealed: String,
        opened: OpenedToken, family: SealedGrant, raw: String, legacyFormat: LegacyFormat?,
        binding: [UInt8]?, respond: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        self.refresh = refresh
        self.provider = provider
        self.request = request
        self.sealed = sealed
        self.opened = opened
        self.family = family
        self.raw = raw
        self.legacyFormat = legacyFormat
        self.binding = binding
        self.respond = respond
    }

    /// The checks a repeat must pass too come before the replay: a grant that has ended
    /// (CONTRACT §14) is refused even inside the window.
    func checkGrant() {
        let earlierRecord = opened.grant == nil && legacyFormat == nil
        refresh.families.checkGrant(
            family, sealedWithoutFamily: earlierRecord ? sealed : nil, provider: provider,
            failed: { self.refused($0) }, next: { self.replay() })
    }

    /// A refusal before the replay window: a legacy token's failures are all one answer,
    /// byte for byte (CONTRACT §9).
    private func refused(_ error: GrantError) {
        answer(.failure(legacyFormat == nil ? error : .unopenableToken))
    }

    /// The kept answer, the answer of the call in flight, or the provider call
    /// (CONTRACT §12).
    private func replay() {
        refresh.replay.replaying(
            refresh.replay.key(sealed, opened: opened.sealIdentity, provider: provider),
            provider: provider, provedBy: binding, call: { self.call(holding: $0) },
            replayed: { self.replayed($0) }, completion: { self.answer($0) })
    }

    /// A replayed answer to a legacy token settles the allowance its open took as the
    /// first refresh did (`LegacyTokens.settledRefresh`): kept after a refusal, given back after
    /// anything else.
    private func replayed(_ result: Result<HTTPResponse, GrantError>) {
        guard legacyFormat != nil else { return }
        if case .failure(let error) = result, error.status.code == 400 { return }
        refresh.legacy.failureLimit?.giveBack(for: request)
    }

    /// What the window calls when it has no answer for the token (`claim`: the window's
    /// claim on it, nil when the window is off). Reuse is judged only then (with
    /// `TOKENSWAP_<NAME>_REUSE_DETECTION` on): a repeat inside the window is a retry
    /// (CONTRACT §14).
    private func call(holding claim: ReplayClaim?) {
        guard provider.familyPolicy.reuseDetection else { return callProvider(holding: claim) }
        refresh.families.checkGeneration(
            family, raw: raw, provider: provider,
            failed: { self.called(.failure($0), sealedAs: nil, holding: claim) }
        ) { self.callProvider(holding: claim) }
    }

    /// The provider call, and its answer sealed as soon as it is read (`sealedAnswer`), in
    /// the call's one callback, which hands it on by method calls (`providerAnswered`).
    private func callProvider(holding claim: ReplayClaim?) {
        refresh.upstream.send(provider.tokenRequest(for: .refreshToken(raw))) {
            [self] result in
            let sealed = Result { () throws(GrantError) in
                try sealedAnswer(
                    refresh.upstream.read(result, from: provider) {
                        (answer) throws(GrantError) in try interpreted(answer)
                    })
            }
            providerAnswered(
                sealed.map(\.response), sealedAs: try? sealed.get().grant, holding: claim)
        }
    }

    /// The provider's answer read in its dialect, or, for a legacy token, its refusals read
    /// the legacy way (CONTRACT §9).
    private func interpreted(_ answer: HTTPResponse) throws(GrantError) -> ProviderTokenResponse {
        guard legacyFormat != nil else { return try provider.dialect.interpretToken(answer) }
        return try LegacyTokens.interpretRefresh(answer, provider: provider)
    }

    /// The provider call's answer, sealed (as `grant`): for a legacy token, the allowance
    /// settled (CONTRACT §9) first.
    private func providerAnswered(
        _ result: Result<HTTPResponse, GrantError>, sealedAs grant: SealedGrant?,
        holding claim: ReplayClaim?
    ) {
        guard let legacyFormat else { return called(result, sealedAs: grant, holding: claim) }
        called(
            refresh.legacy.settledRefresh(
                result, format: legacyFormat, provider: provider, request: request),
            sealedAs: grant, holding: claim)
    }

    /// The call's answer (the provider's, or reuse detection's refusal): with reuse
    /// detection, a successful answer's generation recorded as its family's newest first
    /// (CONTRACT §14: the client has it only then; every answer is then sealed anew as the
    /// family's next generation, `needsNewSeal`: `grant`, the one `sealedAnswer` sealed);
    /// then kept under the window's claim (§12) and answered.
    private func called(
        _ result: Result<HTTPResponse, GrantError>, sealedAs grant: SealedGrant?,
        holding claim: ReplayClaim?
    ) {
        guard provider.familyPolicy.reuseDetection, case .success = result, let grant
        else { return settled(result, holding: claim) }
        refresh.families.recordGeneration(grant, provider: provider) {
            self.settled(result, holding: claim)
        }
    }

    /// The call's answer kept under `claim` (or handed to its waiters), then answered.
    private func settled(_ result: Result<HTTPResponse, GrantError>, holding claim: ReplayClaim?) {
        claim?.keep(result)
        answer(result)
    }

    /// The refresh's result as the endpoint's answer (`GrantAnswer.answer`).
    private func answer(_ result: Result<HTTPResponse, GrantError>) {
        respond(GrantAnswer.answer(result, provider: provider, grant: RefreshGrant.outcomeName))
    }

    /// The answer to the client, from the tokens the provider answered: the provider's
    /// rotated token, or else the client's own, sealed as the next generation of its family
    /// (the derived one for a token sealed without one, CONTRACT §14) bound to `binding`
    /// (§13). The same text goes back only when nothing it seals would change: the active
    /// key, the current layout, the same binding, and no generation to count (§2).
    private func sealedAnswer(_ tokens: ProviderTokenResponse) throws(GrantError) -> (
        response: HTTPResponse, grant: SealedGrant?
    ) {
        let families = refresh.families
        let rotated = tokens.refreshToken.flatMap { $0 == raw ? nil : $0 }
        if rotated == nil, opened.sealedWithActiveKey,
            !families.needsNewSeal(opened, provider: provider),
            opened.grant?.thumbprint == binding
        {
            let response = GrantAnswer.success(
                families.withLifetime(tokens, grant: opened.grant, provider: provider),
                refreshToken: sealed)
            return (response, opened.grant)
        }
        let grant = try families.refreshedGrant(family, thumbprint: binding)
        let answer = try refresh.sealer.seal(rotated ?? raw, for: provider, grant: grant)
        let response = GrantAnswer.success(
            families.withLifetime(tokens, grant: grant, provider: provider), refreshToken: answer)
        return (response, grant)
    }
}
