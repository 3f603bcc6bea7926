import HTTPCore
import Sealing

/// Grant families (CONTRACT §14): every sealed refresh token carries its family (a random
/// id, the grant's start time and its generation, inside the seal: `SealedGrant`). Made at
/// the swap or the device approval, or at the first refresh of a token sealed before
/// families existed (legacy tokens included); kept by every refresh.
///
/// Three things follow from the family, all decided here and all before the provider is
/// called:
/// - a revoked family (`/revoke`, or reuse below) is refused, by the token sent and by
///   every token refreshed from it before or after; recorded in the state store of §12 for
///   `TOKENSWAP_REVOCATION_RETENTION_DAYS`, keyed by the digest of the family id;
/// - with reuse detection (RFC 9700 §4.14.2), an older generation than the family's newest,
///   presented after the replay window, revokes the family;
/// - with a known lifetime, a grant past it is refused, and every answer says how long it
///   has left (`refresh_token_expires_in`).
extension GrantEndpoints {
    // MARK: Keeping families (made by `newGrant`, kept by `refreshedGrant`)

    /// Whether a refresh's answer must be sealed anew although the provider did not rotate
    /// and the active key sealed the token: it has no family yet, or reuse detection needs
    /// the next generation in it (CONTRACT §2: "when §13–§14 need a new seal").
    func needsNewSeal(_ opened: OpenedToken, provider: Provider) -> Bool {
        opened.grant == nil || families.policy(for: provider.name).reuseDetection
    }

    // MARK: Refusing ended grants (before the replay claim)

    /// Refuses a refresh whose grant has ended, before the replay window is consulted (a
    /// repeat inside the window is refused too, CONTRACT §12): a grant past its lifetime
    /// (no store needed), then a revoked family. `next` runs when neither holds. By
    /// callback: the memory store answers inline.
    func checkGrant(
        _ opened: OpenedToken, sealed: String, provider: Provider,
        failed: @escaping @Sendable (GrantError) -> Void, next: @escaping @Sendable () -> Void
    ) {
        if let grant = opened.grant,
            families.policy(for: provider.name).secondsLeft(
                startTime: grant.startTime, now: unixClock()) == 0
        {
            return failed(.grantEnded(.expired))
        }
        guard let key = revocationKey(opened.grant, sealed: sealed, provider: provider) else {
            return failed(.temporarilyUnavailable(reason: "digest unavailable"))
        }
        state.contains(key) { result in
            switch result {
            case .success(false): next()
            case .success(true): failed(.grantEnded(.revoked))
            case .failure(let error): failed(Self.stateFailure(error))
            }
        }
    }

    /// Where the revocation of a grant is recorded: its family id (as hex, digested by
    /// `StateKey`), or, for a token sealed before families existed, the token as sent (it
    /// has nothing else that names its grant; the tokens refreshed from it carry families
    /// of their own). Nil only when OpenSSL cannot digest.
    func revocationKey(_ grant: SealedGrant?, sealed: String, provider: Provider) -> StateKey? {
        guard let grant else {
            return StateKey(.revokedFamily, scope: provider.name, value: "token:" + sealed)
        }
        return StateKey(.revokedFamily, scope: provider.name, value: Hex.encode(grant.familyID))
    }

    /// A state store failure as the request's answer: only a store that must not be
    /// bypassed reports one (`TOKENSWAP_STATE_FAILURE=closed`, CONTRACT §12): 503 with
    /// `Retry-After`.
    static func stateFailure(_ error: StateStoreError) -> GrantError {
        GrantError(error)
    }

    // MARK: Reuse detection (after the replay window)

    /// Reuse detection (RFC 9700 §4.14.2, CONTRACT §14), for a refresh the replay window
    /// had no answer for: a generation older than the family's newest means a copy of an
    /// earlier token is in use, by the thief or by the user, and nobody can tell which; so
    /// the whole family is revoked and the request refused. Raising to the presented
    /// generation reads the newest and changes nothing that is not true already.
    func checkGeneration(
        _ opened: OpenedToken, raw: String, provider: Provider,
        failed: @escaping @Sendable (GrantError) -> Void, next: @escaping @Sendable () -> Void
    ) {
        guard families.policy(for: provider.name).reuseDetection, let grant = opened.grant else {
            return next()
        }
        guard let key = generationKey(grant, provider: provider) else {
            return failed(.temporarilyUnavailable(reason: "digest unavailable"))
        }
        state.raiseGeneration(key, to: grant.generation, keepFor: families.retention) {
            [self] result in
            switch result {
            case .failure(let error):
                failed(Self.stateFailure(error))
            case .success(let newest) where newest > grant.generation:
                reuseDetected(grant, raw: raw, provider: provider) {
                    failed(.grantEnded(.revoked))
                }
            case .success:
                next()
            }
        }
    }

    /// Records `grant` (a refresh's answer) as its family's newest generation when reuse
    /// detection is on, then `done`; the answer waits for it, so an older token presented
    /// once the client has the answer is seen as reuse on every copy sharing the store.
    func recordGeneration(
        _ grant: SealedGrant?, provider: Provider, done: @escaping @Sendable () -> Void
    ) {
        guard families.policy(for: provider.name).reuseDetection, let grant,
            let key = generationKey(grant, provider: provider)
        else { return done() }
        // A failure leaves the older newest: reuse of this generation's parent is then
        // noticed one refresh later. The store reports its own failures.
        state.raiseGeneration(key, to: grant.generation, keepFor: families.retention) { _ in
            done()
        }
    }

    func generationKey(_ grant: SealedGrant, provider: Provider) -> StateKey? {
        StateKey(.familyGeneration, scope: provider.name, value: Hex.encode(grant.familyID))
    }

    /// The family of a reused token is revoked (in the store, and at the provider where its
    /// style revokes refresh tokens), counted, and logged once with a fingerprint of the
    /// family, never a token; then `done`.
    private func reuseDetected(
        _ grant: SealedGrant, raw: String, provider: Provider,
        done: @escaping @Sendable () -> Void
    ) {
        metrics.refreshReuseDetected(provider: provider.name)
        logger.warning(
            "refresh token reuse detected: an older generation came back after the replay window; the grant family is revoked",
            metadata: [
                "provider": "\(provider.name)",
                "family": "\(Self.fingerprint(grant))",
                "generation": "\(grant.generation)",
            ])
        revokeUpstream(raw, provider: provider)
        guard let key = revocationKey(grant, sealed: "", provider: provider) else { return done() }
        state.insertIfAbsent(key, keepFor: families.retention) { _ in done() }
    }

    /// Asks the provider to revoke the raw refresh token, where its style can, without
    /// waiting: the family is refused here whatever the provider answers.
    private func revokeUpstream(_ raw: String, provider: Provider) {
        guard provider.lifecycle.revocationStyle.revokesRefreshTokens,
            let request = provider.revocationRequest(for: .refreshToken(raw))
        else { return }
        let style = provider.lifecycle.revocationStyle
        transport.send(request, timeoutSeconds: upstreamTimeoutSeconds) { [self] result in
            let outcome: ProviderRevocationOutcome =
                switch result {
                case .success(let answer): ProviderRevocationOutcome.interpret(answer, style: style)
                case .failure:
                    .failed(retryAfterSeconds: ProviderRevocationOutcome.defaultRetryAfterSeconds)
                }
            metrics.revocation(provider: provider.name, outcome)
        }
    }

    /// The first 8 hex digits of the SHA-256 of the family id: enough to find one family's
    /// lines in a log, useless for naming it in the store (whose keys digest the id with
    /// their namespace) and never a token.
    static func fingerprint(_ grant: SealedGrant) -> String {
        guard let digest = SHA256.digest(grant.familyID) else { return "unavailable" }
        return String(Hex.encode(digest).prefix(8))
    }

    // MARK: Lifetime

    /// `tokens` with `refresh_token_expires_in` as CONTRACT §14 has it: the smaller of the
    /// seconds `grant` has left by the provider's configured lifetime and the provider's own
    /// member (normalised to an integer); the provider's alone when the lifetime is unknown;
    /// unchanged when neither is known or no refresh token goes back.
    func withLifetime(_ tokens: ProviderTokenResponse, grant: SealedGrant?, provider: Provider)
        -> ProviderTokenResponse
    {
        let name = "refresh_token_expires_in"
        var members = tokens.members
        let index = members.firstIndex { $0.name == name }
        let theirs = index.flatMap {
            ProviderTokenResponse.normalisedExpiresIn(members[$0].value)
        }
        let ours = grant.flatMap {
            families.policy(for: provider.name).secondsLeft(
                startTime: $0.startTime, now: unixClock())
        }
        let seconds: Int
        switch (ours, theirs) {
        case (let ours?, let theirs?): seconds = min(ours, theirs)
        case (let ours?, nil): seconds = ours
        case (nil, let theirs?): seconds = theirs
        case (nil, nil): return tokens
        }
        let member = JSONValue.Member(name, .number(String(seconds)))
        if let index {
            members[index] = member
        } else {
            members.append(member)
        }
        return ProviderTokenResponse(members: members, refreshToken: tokens.refreshToken)
    }
}
