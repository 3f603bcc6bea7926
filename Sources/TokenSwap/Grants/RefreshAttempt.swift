import HTTPCore
import Sealing

/// One refresh on its way through the ended-grant checks, the replay window and the
/// provider call (`RefreshGrant`): what its token opened as and what every step reads, in
/// one object. Each step's callback then holds this one reference, where a closure per step
/// copied (and retained) the token, the request and the rest into a context of its own
/// (docs/perf-log, session 13).
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
    let finish: @Sendable (Result<HTTPResponse, GrantError>) -> Void

    init(
        refresh: RefreshGrant, provider: Provider, request: HTTPRequest, sealed: String,
        opened: OpenedToken, family: SealedGrant, raw: String, legacyFormat: LegacyFormat?,
        binding: [UInt8]?, finish: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
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
        self.finish = finish
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
        finish(.failure(legacyFormat == nil ? error : .unopenableToken))
    }

    /// The kept answer, the answer of the call in flight, or the provider call
    /// (CONTRACT §12).
    private func replay() {
        refresh.replay.replaying(
            refresh.replay.key(sealed, opened: opened.sealIdentity, provider: provider),
            provider: provider, provedBy: binding, call: { done in self.call(done) },
            replayed: { self.replayed($0) }, completion: finish)
    }

    /// A replayed answer to a legacy token settles the allowance its open took as the
    /// first refresh did (`LegacyTokens.settledRefresh`): kept after a refusal, given back after
    /// anything else.
    private func replayed(_ result: Result<HTTPResponse, GrantError>) {
        guard legacyFormat != nil else { return }
        if case .failure(let error) = result, error.status.code == 400 { return }
        refresh.legacy.failureLimit?.giveBack(for: request)
    }

    /// What the window calls when it has no answer for the token. Reuse is judged only
    /// then (with `TOKENSWAP_<NAME>_REUSE_DETECTION` on): a repeat inside the window is a
    /// retry (CONTRACT §14).
    private func call(_ done: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void) {
        guard provider.familyPolicy.reuseDetection else { return callProvider(done) }
        refresh.families.checkGeneration(
            family, raw: raw, provider: provider, failed: { done(.failure($0)) }
        ) { self.callProvider(done) }
    }

    /// The provider call, and its answer sealed as soon as it is read (`sealedAnswer`), inside
    /// the provider call's own callback; then, for a legacy token, the allowance settled
    /// (CONTRACT §9), and with reuse detection the answer's generation recorded (§14), each
    /// a step on the way to `done` only where it applies.
    private func callProvider(
        _ done: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) {
        let sealed: @Sendable (ProviderTokenResponse) throws(GrantError) -> HTTPResponse = {
            [self] (tokens) throws(GrantError) in
            try sealedAnswer(tokens)
        }
        let finish = provider.familyPolicy.reuseDetection ? recordingGeneration(done) : done
        guard let legacyFormat else {
            return refresh.upstream.exchange(
                .refreshToken(raw), with: provider, then: sealed, completion: finish)
        }
        // A legacy token's refusals are read the legacy way (CONTRACT §9).
        let provider = provider
        refresh.upstream.exchange(
            .refreshToken(raw), with: provider,
            interpret: { (answer) throws(GrantError) in
                try LegacyTokens.interpretRefresh(answer, provider: provider)
            }, then: sealed,
            completion: { [self] result in
                finish(
                    refresh.legacy.settledRefresh(
                        result, format: legacyFormat, provider: provider, request: request))
            })
    }

    /// The answer to the client, from the tokens the provider answered: the provider's
    /// rotated token, or else the client's own, sealed as the next generation of its family
    /// (the derived one for a token sealed without one, CONTRACT §14) bound to `binding`
    /// (§13). The same text goes back only when nothing it seals would change: the active
    /// key, the current layout, the same binding, and no generation to count (§2).
    private func sealedAnswer(_ tokens: ProviderTokenResponse) throws(GrantError) -> HTTPResponse {
        let families = refresh.families
        let rotated = tokens.refreshToken.flatMap { $0 == raw ? nil : $0 }
        if rotated == nil, opened.sealedWithActiveKey,
            !families.needsNewSeal(opened, provider: provider),
            opened.grant?.thumbprint == binding
        {
            return GrantAnswer.success(
                families.withLifetime(tokens, grant: opened.grant, provider: provider),
                refreshToken: sealed)
        }
        let grant = try families.refreshedGrant(family, thumbprint: binding)
        let answer = try refresh.sealer.seal(rotated ?? raw, for: provider, grant: grant)
        return GrantAnswer.success(
            families.withLifetime(tokens, grant: grant, provider: provider), refreshToken: answer)
    }

    /// `done`, after a successful answer's generation is recorded as its family's newest
    /// (reuse detection, CONTRACT §14): the client has it only then. With reuse detection
    /// every answer is sealed anew as the family's next generation (`needsNewSeal`), the one
    /// `sealedAnswer` sealed.
    private func recordingGeneration(
        _ done: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) -> @Sendable (Result<HTTPResponse, GrantError>) -> Void {
        { [self] result in
            guard case .success = result,
                let grant = try? refresh.families.refreshedGrant(family, thumbprint: binding)
            else { return done(result) }
            refresh.families.recordGeneration(grant, provider: provider) { done(result) }
        }
    }
}
