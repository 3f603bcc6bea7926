import HTTPCore
import Logging
import Sealing

/// The swap, refresh, device and lifecycle endpoints (CONTRACT §2, §7, §8) over an `UpstreamTransport`: decode the
/// request, open or seal refresh tokens, call the provider once, and answer. Every
/// failure is a `GrantError`, turned into a response in one place.
///
/// A class: the endpoints that answer by callback capture it in their closures, one
/// retain rather than one per field.
public final class GrantEndpoints: Sendable {
    public let keyRing: KeyRing
    public let transport: any UpstreamTransport
    public let upstreamTimeoutSeconds: Double
    public let logger: Logger
    /// Upstream outcomes, sealing failures and opens by key id are counted here.
    public let metrics: ServiceMetrics
    /// The per-client limit of `/device/code` (`TOKENSWAP_DEVICE_RATE_LIMIT`); nil: off.
    public let deviceLimit: ClientRateLimit?
    /// The per-client limit of `/introspect` (`TOKENSWAP_INTROSPECTION_RATE_LIMIT`, RFC 7662
    /// §4: token scanning); nil: off.
    public let introspectionLimit: ClientRateLimit?
    /// Failed legacy opens per client (`TOKENSWAP_LEGACY_FAILURE_LIMIT`, CONTRACT §9:
    /// unauthenticated formats can be probed); nil: off.
    public let legacyFailureLimit: ClientRateLimit?
    /// DPoP proofs and binding (CONTRACT §13); nil: no proof is read and nothing binds.
    let dpop: DPoPGate?
    /// The state that outlives a request (CONTRACT §12): the replay window and single
    /// flight of refreshes (`GrantEndpoints+Replay`).
    let state: any StateStore
    /// `state` when it is the memory store (the default, one copy): a refresh claims there
    /// by a plain call, without a callback to allocate (`replaying`).
    let memoryState: MemoryStateStore?
    /// `TOKENSWAP_REFRESH_REPLAY_SECONDS`; 0: every request calls the provider.
    let refreshReplaySeconds: Int
    /// Revocation, reuse detection and lifetime of grant families (CONTRACT §14).
    let families: GrantFamilySettings
    /// Now, in Unix seconds: a grant family's start and its lifetime are wall-clock times
    /// (sealed, read by every copy); injected by tests.
    let unixClock: @Sendable () -> Int64
    /// `tokenswap_refresh_replays_total`'s series, kept (`ServiceMetrics+Replay`).
    let replayCounters = CounterCache<ServiceMetrics.ReplayKey>()

    /// - Parameters:
    ///   - state: nil: a `MemoryStateStore` of the default size, counting into `metrics`.
    package init(
        keyRing: KeyRing, transport: any UpstreamTransport, upstreamTimeoutSeconds: Double,
        logger: Logger, metrics: ServiceMetrics = ServiceMetrics(),
        deviceLimit: ClientRateLimit? = nil, introspectionLimit: ClientRateLimit? = nil,
        legacyFailureLimit: ClientRateLimit? = nil, dpop: DPoPGate? = nil,
        refreshReplaySeconds: Int = ConfigurationDefaults.refreshReplaySeconds,
        state: (any StateStore)? = nil,
        families: GrantFamilySettings = GrantFamilySettings(),
        unixClock: @escaping @Sendable () -> Int64 = GrantFamilySettings.unixNow
    ) {
        self.keyRing = keyRing
        self.transport = transport
        self.upstreamTimeoutSeconds = upstreamTimeoutSeconds
        self.logger = logger
        self.metrics = metrics
        self.deviceLimit = deviceLimit
        self.introspectionLimit = introspectionLimit
        self.legacyFailureLimit = legacyFailureLimit
        self.dpop = dpop
        // Clamped as the setting is (CONTRACT §12: 0 to 600 s).
        self.refreshReplaySeconds = min(max(0, refreshReplaySeconds), 600)
        let state =
            state ?? MemoryStateStore(metrics: metrics, replaySeconds: refreshReplaySeconds)
        self.state = state
        self.memoryState = state as? MemoryStateStore
        self.families = families
        self.unixClock = unixClock
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

extension GrantEndpoints {
    /// The service for a loaded configuration: its key ring and upstream deadline, with
    /// `transport` the real `HTTPClient` or, with `--sandbox`, the `SandboxProvider`.
    /// `state` nil: a `MemoryStateStore` sized by the configuration. `sharedState`: where
    /// the per-client limits of `/device/code` and `/introspect` count when a shared store
    /// is configured (CONTRACT §12); nil: in this copy's memory.
    package convenience init(
        configuration: ServiceConfiguration, transport: any UpstreamTransport, logger: Logger,
        metrics: ServiceMetrics = ServiceMetrics(), state: (any StateStore)? = nil,
        limitsIn sharedState: (any StateStore)? = nil
    ) {
        // One store for every feature's state: the replay window, proof ids, revocations.
        let store = state ?? MemoryStateStore(configuration: configuration, metrics: metrics)
        self.init(
            keyRing: configuration.keyRing, transport: transport,
            upstreamTimeoutSeconds: configuration.upstreamTimeoutSeconds, logger: logger,
            metrics: metrics,
            deviceLimit: configuration.clientRateLimit(
                perMinute: configuration.deviceRateLimitPerMinute)?.counted(
                    in: sharedState, name: "device_code"),
            introspectionLimit: configuration.clientRateLimit(
                perMinute: Double(configuration.introspectionRateLimitPerMinute))?.counted(
                    in: sharedState, name: "introspection"),
            legacyFailureLimit: configuration.clientRateLimit(
                perMinute: Double(configuration.legacyFailureLimitPerMinute)),
            dpop: DPoPGate(configuration: configuration, store: store, metrics: metrics),
            refreshReplaySeconds: configuration.refreshReplaySeconds, state: store,
            families: configuration.families)
    }

    /// Every token route of the configuration's providers.
    public func routes(for configuration: ServiceConfiguration) -> [ServiceRoute] {
        routes(providers: configuration.providers, defaultProvider: configuration.defaultProvider)
    }
}

extension GrantEndpoints {
    /// Runs one token request's `body` and turns its result into the answer.
    func answer(
        provider: Provider, grant: String,
        _ body: () async throws(GrantError) -> HTTPResponse
    ) async -> EndpointAnswer {
        do {
            return Self.answer(.success(try await body()), provider: provider, grant: grant)
        } catch {
            return Self.answer(.failure(error), provider: provider, grant: grant)
        }
    }

    /// A token request's result as its answer: the response (every failure through
    /// `GrantError.response`) and the outcome the pipeline logs.
    static func answer(
        _ result: Result<HTTPResponse, GrantError>, provider: Provider, grant: String
    ) -> EndpointAnswer {
        switch result {
        case .success(let response):
            EndpointAnswer(
                response,
                outcome: RequestOutcome(provider: provider.name, grant: grant, result: "ok"))
        case .failure(let error):
            EndpointAnswer(
                error.response,
                outcome: RequestOutcome(
                    provider: provider.name, grant: grant, result: error.errorCode))
        }
    }

    /// What a callback-shaped grant endpoint finishes with: its result, answered through
    /// `completion` as `answer` shapes it.
    static func answering(
        provider: Provider, grant: String,
        _ completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) -> @Sendable (Result<HTTPResponse, GrantError>) -> Void {
        { result in completion(answer(result, provider: provider, grant: grant)) }
    }

    /// The fields of a grant endpoint's request body, or nil once the decoding failure has
    /// been answered through `completion` (`/v1/swap` and `/v1/refresh` decode here; the
    /// token endpoint decodes its own, once, and hands the fields on).
    static func decodedFields(
        _ request: HTTPRequest, provider: Provider, grant: String,
        _ completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) -> TokenRequestFields? {
        do throws(GrantError) {
            return try TokenRequestFields.decode(request)
        } catch {
            completion(answer(.failure(error), provider: provider, grant: grant))
            return nil
        }
    }
}

/// Headers on every grant endpoint response, success or error (CONTRACT §2; RFC 6749
/// §5.1: tokens must not be cached).
public enum TokenResponseHeaders {
    public static let base = HTTPHeaders([
        ("Content-Type", "application/json"),
        ("Cache-Control", "no-store"),
        ("Pragma", "no-cache"),
    ])
}
