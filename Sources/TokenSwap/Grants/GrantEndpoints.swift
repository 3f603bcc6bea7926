import HTTPClient
import HTTPCore
import Logging
import Sealing

/// The swap, refresh, device and lifecycle endpoints (CONTRACT §2, §7, §8) over an `UpstreamTransport`: decode the
/// request, open or seal refresh tokens, call the provider once, and answer. Every
/// failure is a `TokenEndpointError`, turned into a response in one place.
///
/// A class: the endpoints that answer by callback capture it in their closures, one
/// retain rather than one per field.
public final class TokenEndpoints: Sendable {
    public let keyRing: KeyRing
    public let transport: any UpstreamTransport
    public let upstreamTimeoutSeconds: Double
    public let logger: Logger
    /// Upstream outcomes, sealing failures and opens by key id are counted here.
    public let metrics: ServiceMetrics
    /// Local `slow_down` bookkeeping of device polls (RFC 8628 §3.5).
    let pollSchedule: DevicePollSchedule
    /// The per-client limit of `/device/code` (`TOKENSWAP_DEVICE_RATE_LIMIT`); nil: off.
    public let deviceLimit: ClientRateLimit?
    /// The per-client limit of `/introspect` (`TOKENSWAP_INTROSPECTION_RATE_LIMIT`, RFC 7662
    /// §4: token scanning); nil: off.
    public let introspectionLimit: ClientRateLimit?
    /// Failed legacy opens per client (`TOKENSWAP_LEGACY_FAILURE_LIMIT`, CONTRACT §9:
    /// unauthenticated formats can be probed); nil: off.
    public let legacyFailureLimit: ClientRateLimit?

    public init(
        keyRing: KeyRing, transport: any UpstreamTransport, upstreamTimeoutSeconds: Double,
        logger: Logger, metrics: ServiceMetrics = ServiceMetrics(),
        deviceLimit: ClientRateLimit? = nil, introspectionLimit: ClientRateLimit? = nil,
        legacyFailureLimit: ClientRateLimit? = nil
    ) {
        self.keyRing = keyRing
        self.transport = transport
        self.upstreamTimeoutSeconds = upstreamTimeoutSeconds
        self.logger = logger
        self.metrics = metrics
        self.deviceLimit = deviceLimit
        self.introspectionLimit = introspectionLimit
        self.legacyFailureLimit = legacyFailureLimit
        self.pollSchedule = DevicePollSchedule()
    }

    /// What a sealed value is bound to: a value sealed for one provider, client id or
    /// kind does not open for another (CONTRACT §4, §7).
    static func context(_ provider: Provider, kind: SealedKind = .refreshToken) -> SealingContext {
        SealingContext(provider: provider.name, clientID: provider.clientID, kind: kind)
    }

    /// Sends `grant` to the provider's token endpoint and interprets the answer, by
    /// callback: no task when the transport exchanges in place (an idle pooled connection
    /// of the caller's loop).
    func exchange(
        _ grant: TokenGrant, with provider: Provider,
        completion: @escaping @Sendable (Result<ProviderTokenResponse, TokenEndpointError>) -> Void
    ) {
        exchange(
            grant, with: provider,
            interpret: { (answer) throws(TokenEndpointError) in
                try provider.dialect.interpretToken(answer)
            }, completion: completion)
    }

    /// `exchange`, with the provider's answer read by `interpret` (a legacy-opened refresh
    /// token reads refusals its own way, CONTRACT §9).
    func exchange(
        _ grant: TokenGrant, with provider: Provider,
        interpret:
            @escaping @Sendable (HTTPResponse) throws(TokenEndpointError) ->
            ProviderTokenResponse,
        completion: @escaping @Sendable (Result<ProviderTokenResponse, TokenEndpointError>) -> Void
    ) {
        transport.send(provider.tokenRequest(for: grant), timeoutSeconds: upstreamTimeoutSeconds) {
            [self] result in
            completion(
                Result { () throws(TokenEndpointError) in
                    let answer = try arrived(result, from: provider)
                    return try interpreted(answer, from: provider, interpret)
                })
        }
    }

    /// One call to one of the provider's endpoints: a failed exchange becomes CONTRACT
    /// §2's row, the answer goes through `interpret`, and the outcome is counted.
    func call<Answer>(
        _ provider: Provider, _ request: HTTPClientRequest,
        interpret: (HTTPResponse) throws(TokenEndpointError) -> Answer
    ) async throws(TokenEndpointError) -> Answer {
        let result: Result<HTTPResponse, HTTPClientError>
        do throws(HTTPClientError) {
            result = .success(
                try await transport.send(request, timeoutSeconds: upstreamTimeoutSeconds))
        } catch {
            result = .failure(error)
        }
        return try interpreted(try arrived(result, from: provider), from: provider, interpret)
    }

    /// The provider's answer, or the failed exchange as CONTRACT §2's row, counted and
    /// logged.
    private func arrived(_ result: Result<HTTPResponse, HTTPClientError>, from provider: Provider)
        throws(TokenEndpointError) -> HTTPResponse
    {
        switch result {
        case .success(let answer):
            return answer
        case .failure(let error):
            let outcome = UpstreamOutcome(error)
            metrics.upstream(provider: provider.name, outcome)
            // The class of failure and the client's reason (an address, errno text, the
            // TLS verification result): never a token, code or secret, which the client
            // never puts in its errors.
            logger.warning(
                "provider call failed",
                metadata: [
                    "provider": "\(provider.name)", "outcome": "\(outcome.rawValue)",
                    "reason": "\(error)",
                ])
            throw TokenEndpointError(error)
        }
    }

    /// The provider's answer through `interpret`, the outcome counted.
    private func interpreted<Answer>(
        _ answer: HTTPResponse, from provider: Provider,
        _ interpret: (HTTPResponse) throws(TokenEndpointError) -> Answer
    ) throws(TokenEndpointError) -> Answer {
        do {
            let interpreted = try interpret(answer)
            metrics.upstream(provider: provider.name, .ok)
            return interpreted
        } catch {
            metrics.upstream(
                provider: provider.name, UpstreamOutcome(status: answer.status.code, error: error))
            throw error
        }
    }

    /// Seals a raw provider value for the client: a refresh token unless `kind` says
    /// otherwise.
    func seal(_ rawToken: String, for provider: Provider, kind: SealedKind = .refreshToken)
        throws(TokenEndpointError) -> String
    {
        do {
            return try keyRing.seal(rawToken, context: Self.context(provider, kind: kind))
        } catch .plaintextTooLong {
            metrics.sealingFailed(.seal, reason: "too_long")
            throw .upstreamError(reason: "provider value too long to seal")
        } catch {
            metrics.sealingFailed(.seal, reason: "crypto_unavailable")
            throw .temporarilyUnavailable(reason: "sealing failed: \(error)")
        }
    }

    /// The 200 answer: the provider's members with `refresh_token` set to `refreshToken`
    /// (replacing the raw one in place, or appended), or removed when nil.
    static func success(_ response: ProviderTokenResponse, refreshToken: String?) -> HTTPResponse {
        var members = response.members.filter { $0.name != "refresh_token" }
        if let refreshToken {
            let member = JSONValue.Member("refresh_token", .string(refreshToken))
            if let index = response.members.firstIndex(where: { $0.name == "refresh_token" }) {
                members.insert(member, at: index)
            } else {
                members.append(member)
            }
        }
        return HTTPResponse(
            status: .ok, headers: TokenResponseHeaders.base,
            body: JSONValue.object(members).serialized)
    }
}
