import HTTPCore
import Sealing
import Transport

extension GrantEndpoints {
    /// `POST /v1/<name>/device/code`: the device authorization request (RFC 8628 §3.1,
    /// CONTRACT §7). Checks the scope against the allow-list, asks the provider in its
    /// dialect, and answers RFC 8628 §3.2 with the device code sealed (typed, with its
    /// expiry) so the service keeps no state.
    /// With a valid DPoP proof the sealed device code is bound to its key: its polls must
    /// be proved by that key, and its tokens are bound to it (CONTRACT §13).
    package func deviceCode(_ request: HTTPRequest, provider: Provider) async -> EndpointAnswer {
        let inspection = await inspectDPoP(request, provider: provider)
        let answer = await Self.answer(provider: provider, grant: "device_code_request") {
            () async throws(GrantError) in
            guard let device = provider.device else { throw .unknownProvider }
            // RFC 8628 §5.4: every request creates a pending grant under the app's name.
            if let deviceLimit, case .limited(let seconds) = await deviceLimit.take(for: request) {
                metrics.rejected(.rateLimited)
                throw .rateLimited(retryAfterSeconds: seconds)
            }
            let fields = try TokenRequestFields.decode(request)
            let scope = fields["scope"]
            guard device.allows(scope: scope) else { throw .invalidScope }
            let binding = try dpopBinding(inspection, bound: nil, provider: provider)
            let request = provider.deviceAuthorizationRequest(device, scope: scope)
            let authorization = try await upstream.call(provider, request) {
                (answer) throws(GrantError) in
                try provider.dialect.interpretDeviceAuthorization(answer)
            }
            // `expiresIn` is at most a day (`DeviceAuthorizationAnswer`): no overflow.
            let envelope = DeviceCodeEnvelope(
                deviceCode: authorization.deviceCode,
                expiresAt: Int(clock.now()) + authorization.expiresIn,
                intervalSeconds: authorization.intervalSeconds)
            let sealed = try sealer.seal(
                envelope.plaintext, for: provider, kind: .deviceCode,
                grant: families.newGrant(thumbprint: binding))
            metrics.deviceCodeIssued(provider: provider.name)
            return authorization.response(sealedDeviceCode: sealed)
        }
        return decorated(answer, inspection)
    }

    /// `POST /v1/<name>/device/token`: one poll (RFC 8628 §3.4–3.5). A sealed device code
    /// that does not open is `invalid_grant`, one past its expiry `expired_token`, and a
    /// poll sooner than the code's interval `slow_down` (interval +5 s), all without
    /// calling the provider. Otherwise the provider is polled in its dialect and its
    /// answer normalised; tokens come back as from `/v1/swap`.
    package func deviceToken(_ request: HTTPRequest, provider: Provider) async -> EndpointAnswer {
        let inspection = await inspectDPoP(request, provider: provider)
        let answer = await Self.answer(provider: provider, grant: "device_code") {
            () async throws(GrantError) in
            let fields = try TokenRequestFields.decode(request)
            return try await pollDevice(fields, provider: provider, inspection: inspection)
        }
        return decorated(answer, inspection)
    }

    /// The poll for already decoded fields (also the `device_code` grant of a token
    /// endpoint, CONTRACT §8). A device code bound to a DPoP key is polled only with a
    /// proof by that key, and its tokens are bound to it (CONTRACT §13).
    package func pollDevice(
        _ fields: TokenRequestFields, provider: Provider, inspection: DPoPInspection? = nil
    ) async throws(GrantError) -> HTTPResponse {
        guard provider.device != nil else { throw .unknownProvider }
        guard let sealed = fields["device_code"] else {
            throw .invalidRequest("device_code is missing")
        }
        let (envelope, deviceGrant, identity) = try openDeviceCode(sealed, for: provider)
        let binding = try dpopBinding(
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
            var sealedRefresh: String?
            var grant: SealedGrant?
            if let raw = tokens.refreshToken {
                let family = try families.newGrant(thumbprint: binding)
                sealedRefresh = try sealer.seal(raw, for: provider, grant: family)
                grant = family
            }
            return Self.success(
                families.withLifetime(tokens, grant: grant, provider: provider),
                refreshToken: sealedRefresh)
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
}

extension GrantEndpoints {
    /// A state store call, awaited; its failure (only in `closed` mode does one reach a
    /// request) is 503 `temporarily_unavailable` with `Retry-After` (CONTRACT §12).
    static func stateResult<Value: Sendable>(
        _ call: (@escaping @Sendable (Result<Value, StateStoreError>) -> Void) -> Void
    ) async throws(GrantError) -> Value {
        switch await awaiting(call) {
        case .success(let value): return value
        case .failure(let error): throw GrantError(error)
        }
    }
}

/// The answers of a device poll that are not tokens (RFC 8628 §3.5), as tokenswap
/// gives them to the device whatever the provider's shape was (CONTRACT §7).
public enum DevicePollError: String, Sendable, Hashable, CaseIterable {
    /// The user has not finished yet: poll again after `interval`.
    case authorizationPending = "authorization_pending"
    /// Polled too soon: poll again after the raised `interval` (+5 s, §3.5).
    case slowDown = "slow_down"
    /// The user denied the request: stop polling.
    case accessDenied = "access_denied"
    /// The device code expired: stop polling, start again with a new code.
    case expiredToken = "expired_token"

    /// Pending and slow_down keep the device polling; the others end the flow.
    var keepsPolling: Bool { self == .authorizationPending || self == .slowDown }

    var errorDescription: String {
        switch self {
        case .authorizationPending: "the user has not approved the request yet"
        case .slowDown: "polling too fast; wait the interval before polling again"
        case .accessDenied: "the user denied the request"
        case .expiredToken: "the device code expired; request a new one"
        }
    }
}

/// How a device poll ended, as `tokenswap_device_polls_total` counts it: a closed set,
/// so the `outcome` label stays bounded.
package enum DevicePollOutcome: String, Sendable, CaseIterable {
    case pending
    /// Answered `slow_down` by tokenswap itself, without calling the provider.
    case slowDownLocal = "slow_down_local"
    /// The provider said `slow_down`.
    case slowDownUpstream = "slow_down_upstream"
    case approved
    case denied
    /// Past its expiry: answered locally from the sealed expiry, or by the provider.
    case expired

    init(_ refusal: DevicePollError) {
        switch refusal {
        case .authorizationPending: self = .pending
        case .slowDown: self = .slowDownUpstream
        case .accessDenied: self = .denied
        case .expiredToken: self = .expired
        }
    }
}
