import HTTPCore
import Logging
import Sealing
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// Grant families (CONTRACT §14), a collaborator of every grant that seals a refresh token:
/// every sealed refresh token carries its family (a random
/// id, the grant's start time and its generation, inside the seal: `SealedGrant`). Made at
/// the swap or the device approval, derived from the token itself for a token sealed before
/// families existed (legacy tokens included, `DerivedFamilies`); kept by every refresh.
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
final class GrantFamilies: Sendable {
    /// `TOKENSWAP_REVOCATION_RETENTION_DAYS` (each provider's policy is its `familyPolicy`).
    let settings: GrantFamilySettings
    /// Where revocations and each family's newest generation are recorded (CONTRACT §12).
    let state: any StateStore
    /// The family of a token sealed without one; nil only if OpenSSL cannot derive (such
    /// tokens are then answered `503`).
    let derived: DerivedFamilies?
    /// The provider revocation that reuse detection asks for.
    let transport: any UpstreamTransport
    let upstreamTimeoutSeconds: Double
    let metrics: ServiceMetrics
    let logger: Logger
    /// A family's start and its lifetime are wall-clock times (sealed, read by every copy).
    let clock: WallClock

    init(
        settings: GrantFamilySettings, keyRing: KeyRing, state: any StateStore,
        transport: any UpstreamTransport, upstreamTimeoutSeconds: Double,
        metrics: ServiceMetrics, logger: Logger, clock: WallClock
    ) {
        self.settings = settings
        self.state = state
        self.derived = DerivedFamilies(keyRing: keyRing)
        self.transport = transport
        self.upstreamTimeoutSeconds = upstreamTimeoutSeconds
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
    }

    /// A new grant family starting now (`clock`), generation 0, bound to `thumbprint`:
    /// the grant of a swap or a device approval.
    func newGrant(thumbprint: [UInt8]?) throws(GrantError) -> SealedGrant {
        guard
            let grant = SealedGrant.newFamily(
                thumbprint: thumbprint, startTime: UInt64(max(0, clock.now())))
        else {
            metrics.sealingFailed(.seal, reason: "crypto_unavailable")
            throw .temporarilyUnavailable(reason: "random source failed")
        }
        return grant
    }

    // MARK: Keeping families

    /// The family `opened` belongs to (CONTRACT §14): the sealed one, or for a token
    /// sealed before families existed (legacy tokens included) the one derived from the
    /// token itself, generation 0, starting now (`DerivedFamilies`). Only a crypto library
    /// that stopped working is an error.
    func family(of opened: OpenedToken, provider: Provider) throws(GrantError) -> SealedGrant {
        if let grant = opened.grant { return grant }
        guard
            let family = derived?.family(
                of: opened, provider: provider.name, startTime: UInt64(max(0, clock.now())))
        else {
            metrics.sealingFailed(.open, reason: "crypto_unavailable")
            throw .temporarilyUnavailable(reason: "digest unavailable")
        }
        return family
    }

    /// The grant a refresh answers with: the presented token's family (`family(of:)`), next
    /// generation, bound to `thumbprint`.
    func refreshedGrant(_ family: SealedGrant, thumbprint: [UInt8]?) throws(GrantError)
        -> SealedGrant
    {
        guard let next = family.nextGeneration(thumbprint: thumbprint) else {
            // Only a thumbprint of the wrong length, which `DPoPGate` never gives.
            throw .temporarilyUnavailable(reason: "binding unavailable")
        }
        return next
    }

    /// Whether a refresh's answer must be sealed anew although the provider did not rotate
    /// and the active key sealed the token: it has no family in its seal yet, or reuse
    /// detection needs the next generation in it (CONTRACT §2: "when §13–§14 need a new
    /// seal").
    func needsNewSeal(_ opened: OpenedToken, provider: Provider) -> Bool {
        opened.grant == nil || provider.familyPolicy.reuseDetection
    }

    // MARK: Refusing ended grants (before the replay claim)

    /// Refuses a refresh whose grant has ended, before the replay window is consulted (a
    /// repeat inside the window is refused too, CONTRACT §12): a grant past its lifetime
    /// (no store needed), then a revoked family. `next` runs when neither holds. By
    /// callback: the memory store answers inline.
    ///
    /// A token without a sealed family (`sealed` is its text) is also refused when it was
    /// revoked by itself before families were derived: such records, kept under the token
    /// as sent, stay in the store for their retention.
    func checkGrant(
        _ family: SealedGrant, sealedWithoutFamily sealed: String?, provider: Provider,
        failed: @escaping @Sendable (GrantError) -> Void, next: @escaping @Sendable () -> Void
    ) {
        if provider.familyPolicy.secondsLeft(
            startTime: family.startTime, now: clock.now()) == 0
        {
            return failed(.grantEnded(.expired))
        }
        guard let key = revocationKey(family, provider: provider) else {
            return failed(.temporarilyUnavailable(reason: "digest unavailable"))
        }
        let earlierKey = sealed.flatMap { revocationKey(tokenWithoutFamily: $0, provider: provider) }
        state.contains(key) { [self] result in
            switch result {
            case .success(false):
                guard let earlierKey else { return next() }
                state.contains(earlierKey) { result in
                    switch result {
                    case .success(false): next()
                    case .success(true): failed(.grantEnded(.revoked))
                    case .failure(let error): failed(GrantError(error))
                    }
                }
            case .success(true): failed(.grantEnded(.revoked))
            case .failure(let error): failed(GrantError(error))
            }
        }
    }

    /// Where the revocation of a grant is recorded: its family id (as hex, digested by
    /// `StateKey(hexOf:)`, the key of the hex text, as shared stores have held it since
    /// families began). Nil only when OpenSSL cannot digest.
    func revocationKey(_ family: SealedGrant, provider: Provider) -> StateKey? {
        StateKey(.revokedFamily, scope: provider.name, hexOf: family.familyID)
    }

    /// Where a value that names no family of ours is looked up (`/revoke` of a value that
    /// does not open, which records nothing), and where earlier versions recorded the
    /// revocation of a token sealed before families existed: the token as sent.
    func revocationKey(tokenWithoutFamily sealed: String, provider: Provider) -> StateKey? {
        StateKey(.revokedFamily, scope: provider.name, value: "token:" + sealed)
    }

    // MARK: Revocation at the broker

    /// Records the family of `opened` (`family(of:)`: for a token sealed before families
    /// existed, the one derived from it, so every token refreshed from it ends too) as
    /// revoked for `TOKENSWAP_REVOCATION_RETENTION_DAYS` (CONTRACT §14), before the
    /// provider is asked: a provider that fails leaves the
    /// client retrying a revocation the broker already holds. A value that did not open
    /// (or opened only by a legacy format, which may be unauthenticated and so forged at
    /// will: recording those would let anyone fill the store) looks up its own key
    /// instead, so a store that is down refuses both alike (no oracle) and nothing is
    /// recorded for a value that names no grant of ours.
    func revoke(_ opened: OpenedToken?, sealed: String, provider: Provider)
        async throws(GrantError)
    {
        let key =
            if let opened {
                revocationKey(try family(of: opened, provider: provider), provider: provider)
            } else {
                revocationKey(tokenWithoutFamily: sealed, provider: provider)
            }
        guard let key else { throw .temporarilyUnavailable(reason: "digest unavailable") }
        let retention = settings.retention
        let result = await awaiting { (resume: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void) in
            if opened != nil {
                state.insertIfAbsent(key, keepFor: retention, completion: resume)
            } else {
                state.contains(key, completion: resume)
            }
        }
        if case .failure(let error) = result { throw GrantError(error) }
    }

    // MARK: Reuse detection (after the replay window)

    /// Reuse detection (RFC 9700 §4.14.2, CONTRACT §14), for a refresh the replay window
    /// had no answer for: a generation older than the family's newest means a copy of an
    /// earlier token is in use, by the thief or by the user, and nobody can tell which; so
    /// the whole family is revoked and the request refused. Raising to the presented
    /// generation reads the newest and changes nothing that is not true already.
    func checkGeneration(
        _ grant: SealedGrant, raw: String, provider: Provider,
        failed: @escaping @Sendable (GrantError) -> Void, next: @escaping @Sendable () -> Void
    ) {
        guard provider.familyPolicy.reuseDetection else { return next() }
        guard let key = generationKey(grant, provider: provider) else {
            return failed(.temporarilyUnavailable(reason: "digest unavailable"))
        }
        state.raiseGeneration(key, to: grant.generation, keepFor: settings.retention) {
            [self] result in
            switch result {
            case .failure(let error):
                failed(GrantError(error))
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
        guard provider.familyPolicy.reuseDetection, let grant,
            let key = generationKey(grant, provider: provider)
        else { return done() }
        // A failure leaves the older newest: reuse of this generation's parent is then
        // noticed one refresh later. The store reports its own failures.
        state.raiseGeneration(key, to: grant.generation, keepFor: settings.retention) { _ in
            done()
        }
    }

    func generationKey(_ grant: SealedGrant, provider: Provider) -> StateKey? {
        StateKey(.familyGeneration, scope: provider.name, hexOf: grant.familyID)
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
        guard let key = revocationKey(grant, provider: provider) else { return done() }
        state.insertIfAbsent(key, keepFor: settings.retention) { _ in done() }
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
            provider.familyPolicy.secondsLeft(
                startTime: $0.startTime, now: clock.now())
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

/// Why a sealed refresh token that opened is refused without a provider call
/// (CONTRACT §14): `GrantError.grantEnded`, a `400 invalid_grant` like every dead grant, so
/// clients sign the user out.
public enum GrantEnding: String, Sendable, Equatable {
    /// Its family was revoked: by `/revoke` (a sign-out), or because an older generation
    /// came back after the replay window (reuse detection).
    case revoked
    /// The provider's refresh-token lifetime has run out since the grant began.
    case expired

    /// The `error_description`: what the user must do, never which token or family.
    var errorDescription: String {
        switch self {
        case .revoked: "the grant was revoked: sign in again"
        case .expired: "the grant has expired: sign in again"
        }
    }
}

/// The service-wide grant-family setting of CONTRACT §14:
/// `TOKENSWAP_REVOCATION_RETENTION_DAYS`. Each provider's own (`TOKENSWAP_<NAME>_REUSE_DETECTION`,
/// `_REFRESH_TOKEN_LIFETIME_SECONDS`) is its `Provider.familyPolicy`.
package struct GrantFamilySettings: Sendable, Equatable {
    /// How long a revoked family (and a family's newest generation) is remembered: longer
    /// than any provider keeps a refresh token alive unused (Spotify's six months of 2026).
    package static let defaultRetentionDays = 190
    /// A day at least (a shorter record would let a revoked grant come back the next
    /// morning); ten years at most, far beyond any provider's refresh-token lifetime.
    package static let retentionDaysRange = SettingRange(
        1...3650, expected: "days from 1 to 3650")

    package let retentionDays: Int

    package init(retentionDays: Int = Self.defaultRetentionDays) {
        self.retentionDays = retentionDays
    }

    /// `retentionDays` as a `Duration` (at most ten years of seconds: no overflow).
    package var retention: Duration { .seconds(retentionDays * 86_400) }

    /// Reads the setting from `source`.
    init(_ source: ConfigurationSource) throws(ConfigurationError) {
        self.init(
            retentionDays: try Self.retentionDaysRange.checked(
                try source.int(.revocationRetentionDays) ?? Self.defaultRetentionDays,
                variable: ConfigurationKey.revocationRetentionDays.environmentName))
    }
}

/// What one provider does with the families of its grants (CONTRACT §14).
package struct GrantFamilyPolicy: Sendable, Equatable {
    /// `TOKENSWAP_<NAME>_REUSE_DETECTION=on` (RFC 9700 §4.14.2): an older generation
    /// presented after the replay window revokes the family. Off by default: it needs
    /// clients that keep the refresh token of every answer.
    package let reuseDetection: Bool
    /// `TOKENSWAP_<NAME>_REFRESH_TOKEN_LIFETIME_SECONDS`: how long a grant lives from its
    /// start whatever the app does (Spotify: six months since 2026); 0: unknown.
    package let refreshTokenLifetimeSeconds: Int

    /// Ten years: beyond any provider's refresh-token lifetime; 0 means unknown.
    package static let lifetimeSecondsRange = SettingRange(
        1...315_360_000, expected: "seconds, 0 (unknown) or 1 to 315360000", alsoAllowed: 0)

    package init(reuseDetection: Bool = false, refreshTokenLifetimeSeconds: Int = 0) {
        self.reuseDetection = reuseDetection
        self.refreshTokenLifetimeSeconds = max(0, refreshTokenLifetimeSeconds)
    }

    /// Reads the policy of the provider named `name` from `source`.
    init(_ source: ConfigurationSource, provider name: String) throws(ConfigurationError) {
        let detection = try ServiceConfiguration.choice(
            .provider(name, .reuseDetection), source, default: Switch.off)
        let lifetimeKey = ConfigurationKey.provider(name, .refreshTokenLifetimeSeconds)
        let lifetime = try Self.lifetimeSecondsRange.checked(
            try source.int(lifetimeKey) ?? 0, variable: lifetimeKey.environmentName)
        self.init(reuseDetection: detection == .on, refreshTokenLifetimeSeconds: lifetime)
    }

    /// `TOKENSWAP_<NAME>_REUSE_DETECTION`'s values.
    enum Switch: String, CaseIterable {
        case off, on
    }

    /// Seconds left of a grant that started at `startTime` (Unix seconds) at `now`: nil when
    /// the lifetime is unknown, 0 once it has run out. Saturating: a start time from a seal
    /// or a clock set back can be anything.
    package func secondsLeft(startTime: UInt64, now: Int64) -> Int? {
        guard refreshTokenLifetimeSeconds > 0 else { return nil }
        let now = UInt64(max(0, now))
        let elapsed = now > startTime ? now - startTime : 0
        let lifetime = UInt64(refreshTokenLifetimeSeconds)
        return elapsed >= lifetime ? 0 : Int(lifetime - elapsed)
    }
}
