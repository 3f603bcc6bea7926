import HTTPCore
import Sealing
import Transport

/// `POST /v1/<name>/device/token`: one poll (RFC 8628 §3.4–3.5, CONTRACT §7). Its steps:
/// inspect the proof (§13), open the sealed device code, decide its binding, refuse an
/// expired code, then through the replay window (§12) the poll schedule's decision and the
/// provider's poll in its dialect, its answer normalised. A sealed device code that does
/// not open is `invalid_grant`, one past its expiry `expired_token`, and a poll sooner than
/// the code's interval `slow_down` (interval +5 s), all without calling the provider;
/// tokens come back as from `/v1/swap`, bound to the code's key.
final class DevicePollGrant: Sendable {
    let proof: GrantProof
    let sealer: TokenSealer
    let families: GrantFamilies
    let replay: ReplayWindow
    /// Where the polls' schedule lives (CONTRACT §12).
    let state: any StateStore
    let upstream: ProviderCall
    /// A device code's expiry is wall-clock time (sealed, read by every copy).
    let clock: WallClock
    let metrics: ServiceMetrics

    init(
        proof: GrantProof, sealer: TokenSealer, families: GrantFamilies, replay: ReplayWindow,
        state: any StateStore, upstream: ProviderCall, clock: WallClock, metrics: ServiceMetrics
    ) {
        self.proof = proof
        self.sealer = sealer
        self.families = families
        self.replay = replay
        self.state = state
        self.upstream = upstream
        self.clock = clock
        self.metrics = metrics
    }

    /// The poll of one request; `fields` already decoded by the token endpoint (its
    /// `device_code` grant, CONTRACT §8), else decoded here.
    func answer(
        _ request: HTTPRequest, provider: Provider, fields: TokenRequestFields? = nil
    ) async -> EndpointAnswer {
        let inspection = await proof.inspect(request, provider: provider)
        let answer = await GrantAnswer.answer(provider: provider, grant: "device_code") {
            () async throws(GrantError) in
            let decoded = if let fields { fields } else { try TokenRequestFields.decode(request) }
            return try await poll(decoded, provider: provider, inspection: inspection)
        }
        return proof.decorated(answer, inspection)
    }

    /// The poll for decoded fields. A device code bound to a DPoP key is polled only with
    /// a proof by that key, and its tokens are bound to it (CONTRACT §13).
    func poll(
        _ fields: TokenRequestFields, provider: Provider, inspection: DPoPInspection?
    ) async throws(GrantError) -> HTTPResponse {
        guard provider.device != nil else { throw .unknownProvider }
        guard let sealed = fields["device_code"] else {
            throw .invalidRequest("device_code is missing")
        }
        let (envelope, deviceGrant, identity) = try openDeviceCode(sealed, for: provider)
        let binding = try proof.binding(
            inspection, bound: deviceGrant?.thumbprint, provider: provider)
        // The envelope's numbers are in `DeviceCodeEnvelope`'s ranges: no overflow.
        let remaining = envelope.expiresAt - Int(clock.now())
        guard remaining > 0 else {
            metrics.devicePoll(provider: provider.name, .expired)
            throw .devicePoll(.expiredToken, interval: envelope.intervalSeconds)
        }
        // The code opened and has not expired: the checks a repeat must pass too. A poll
        // answered with tokens is replayed to a repeat of the same code (CONTRACT §12);
        // nothing else a poll answers is kept, so a pending code polls on as before.
        return try await replay.replaying(
            replay.key(sealed, opened: identity, provider: provider), provider: provider,
            provedBy: binding, refusals: false
        ) { [self] () async throws(GrantError) in
            try await pollUpstream(
                envelope, remaining: remaining, binding: binding, provider: provider)
        }
    }

    /// The poll schedule's decision and, when it allows, the provider's poll; tokens come
    /// back bound to `binding` (CONTRACT §13).
    private func pollUpstream(
        _ envelope: DeviceCodeEnvelope, remaining: Int, binding: [UInt8]?, provider: Provider
    ) async throws(GrantError) -> HTTPResponse {
        let deviceCode = envelope.deviceCode
        // The schedule lives in the state store (CONTRACT §12: a local slow_down holds
        // whichever copy the next poll reaches), under the code's digest.
        guard let key = StateKey(.devicePoll, scope: provider.name, value: deviceCode) else {
            throw .temporarilyUnavailable(reason: "digest unavailable")
        }
        let state = self.state
        let interval: Int
        switch try await Self.stateResult({
            state.poll(
                key, initialInterval: envelope.intervalSeconds, lifetime: .seconds(remaining),
                completion: $0)
        }) {
        case .slowDown(let raised):
            metrics.devicePoll(provider: provider.name, .slowDownLocal)
            throw .devicePoll(.slowDown, interval: raised)
        case .poll(let current):
            interval = current
        }
        let request = provider.formRequest(
            to: provider.tokenURL, provider.dialect.pollFields(deviceCode: deviceCode),
            authentication: provider.authMethod)
        let answer = try await upstream.call(provider, request) { (response) throws(GrantError) in
            try provider.dialect.interpretPoll(response)
        }
        switch answer {
        case .tokens(let tokens):
            state.finishPolling(key) { _ in }
            metrics.devicePoll(provider: provider.name, .approved)
            // The approval starts a grant family (CONTRACT §14).
            return try GrantAnswer.firstTokens(
                tokens, provider: provider, binding: binding, families: families, sealer: sealer)
        case .refused(.slowDown):
            metrics.devicePoll(provider: provider.name, .slowDownUpstream)
            let raised = try await Self.stateResult {
                state.providerAskedToSlowDown(key, completion: $0)
            }
            throw .devicePoll(.slowDown, interval: raised ?? DevicePollSchedule.raised(interval))
        case .refused(let refusal):
            if !refusal.keepsPolling { state.finishPolling(key) { _ in } }
            metrics.devicePoll(provider: provider.name, DevicePollOutcome(refusal))
            throw .devicePoll(refusal, interval: interval)
        }
    }

    /// Opens a sealed device code: only the device-code kind for this provider and
    /// client opens, so a sealed refresh token here is `invalid_grant` (CONTRACT §7).
    /// Never a legacy decoder: those formats held refresh tokens only (CONTRACT §9), and
    /// an unauthenticated one would let anyone forge an envelope.
    func openDeviceCode(_ sealed: String, for provider: Provider) throws(GrantError)
        -> (envelope: DeviceCodeEnvelope, grant: SealedGrant?, identity: SealIdentity?)
    {
        let opened = try sealer.open(sealed, for: provider, kind: .deviceCode)
        guard let envelope = DeviceCodeEnvelope(plaintext: opened.plaintext) else {
            metrics.sealingFailed(.open, reason: "not_a_device_code")
            throw .unopenableDeviceCode
        }
        return (envelope, opened.grant, opened.sealIdentity)
    }

    /// A state store call, awaited; its failure (only in `closed` mode does one reach a
    /// request) is 503 `temporarily_unavailable` with `Retry-After` (CONTRACT §12).
    private static func stateResult<Value: Sendable>(
        _ call: (@escaping @Sendable (Result<Value, StateStoreError>) -> Void) -> Void
    ) async throws(GrantError) -> Value {
        switch await awaiting(call) {
        case .success(let value): return value
        case .failure(let error): throw GrantError(error)
        }
    }
}
