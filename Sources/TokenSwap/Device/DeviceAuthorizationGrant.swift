import HTTPCore
import Transport

/// `POST /v1/<name>/device/code`: the device authorization request (RFC 8628 §3.1,
/// CONTRACT §7). Its steps: inspect the proof (§13), take the client's share of the device
/// limit (§5.4), check the scope against the allow-list, ask the provider in its dialect,
/// and answer RFC 8628 §3.2 with the device code sealed (typed, with its expiry, in a new
/// grant family bound to the proof's key) so the service keeps no state. Its polls must
/// then be proved by that key, and its tokens are bound to it.
final class DeviceAuthorizationGrant: Sendable {
    let proof: GrantProof
    /// The per-client limit of `/device/code` (`TOKENSWAP_DEVICE_RATE_LIMIT`); nil: off.
    let deviceLimit: ClientRateLimit?
    let upstream: ProviderCall
    let sealer: TokenSealer
    let families: GrantFamilies
    /// A device code's expiry is wall-clock time (sealed, read by every copy).
    let clock: WallClock
    let metrics: ServiceMetrics

    init(
        proof: GrantProof, deviceLimit: ClientRateLimit?, upstream: ProviderCall,
        sealer: TokenSealer, families: GrantFamilies, clock: WallClock, metrics: ServiceMetrics
    ) {
        self.proof = proof
        self.deviceLimit = deviceLimit
        self.upstream = upstream
        self.sealer = sealer
        self.families = families
        self.clock = clock
        self.metrics = metrics
    }

    func answer(_ request: HTTPRequest, provider: Provider) async -> EndpointAnswer {
        let inspection = await proof.inspect(request, provider: provider)
        let answer = await GrantAnswer.answer(provider: provider, grant: "device_code_request") {
            () async throws(GrantError) in
            guard let device = provider.device else { throw .unknownProvider }
            try await takeAllowance(request)
            let fields = try TokenRequestFields.decode(request)
            let scope = fields["scope"]
            guard device.allows(scope: scope) else { throw .invalidScope }
            let binding = try proof.binding(inspection, bound: nil, provider: provider)
            let authorization = try await upstream.call(
                provider, provider.deviceAuthorizationRequest(device, scope: scope)
            ) { (answer) throws(GrantError) in
                try provider.dialect.interpretDeviceAuthorization(answer)
            }
            return try sealed(authorization, binding: binding, provider: provider)
        }
        return proof.decorated(answer, inspection)
    }

    /// RFC 8628 §5.4: every request creates a pending grant under the app's name, so each
    /// client has its share.
    private func takeAllowance(_ request: HTTPRequest) async throws(GrantError) {
        guard let deviceLimit, case .limited(let seconds) = await deviceLimit.take(for: request)
        else { return }
        metrics.rejected(.rateLimited)
        throw .rateLimited(retryAfterSeconds: seconds)
    }

    /// The provider's answer with its device code sealed in a new grant family.
    private func sealed(
        _ authorization: DeviceAuthorizationAnswer, binding: [UInt8]?, provider: Provider
    ) throws(GrantError) -> HTTPResponse {
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
}
