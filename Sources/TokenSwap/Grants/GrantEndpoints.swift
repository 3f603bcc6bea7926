import HTTPCore
import HTTPServer
import Logging
import Sealing
import Transport

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
    /// Revocation and introspection (CONTRACT §8).
    let lifecycle: LifecycleEndpoints
    /// Other swap services' tokens during a migration (CONTRACT §9).
    let legacy: LegacyTokens
    /// DPoP proofs and binding (CONTRACT §13); nil: no proof is read and nothing binds.
    let dpop: DPoPGate?
    /// The state that outlives a request (CONTRACT §12): the replay window's, the device
    /// polls' schedule.
    let state: any StateStore
    /// Single flight and the replay window of refreshes and device polls (CONTRACT §12).
    let replay: ReplayWindow
    /// The wall clock (`unixClock`): a family's start, a device code's expiry, an
    /// introspected token's `exp`; injected by tests.
    let clock: WallClock
    /// Sealing and opening (CONTRACT §4).
    let sealer: TokenSealer
    /// Grant families: revocation at the broker, reuse detection and the grant's lifetime
    /// (CONTRACT §14).
    let families: GrantFamilies
    /// The calls to the provider (CONTRACT §2's rows, the outcome counted).
    let upstream: ProviderCall

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
        unixClock: @escaping @Sendable () -> Int64 = WallClock.system.now
    ) {
        self.keyRing = keyRing
        self.transport = transport
        self.upstreamTimeoutSeconds = upstreamTimeoutSeconds
        self.logger = logger
        self.metrics = metrics
        self.deviceLimit = deviceLimit
        self.legacy = LegacyTokens(failureLimit: legacyFailureLimit, metrics: metrics)
        self.dpop = dpop
        let state =
            state ?? MemoryStateStore(metrics: metrics, replaySeconds: refreshReplaySeconds)
        self.state = state
        self.replay = ReplayWindow(
            seconds: refreshReplaySeconds, upstreamTimeoutSeconds: upstreamTimeoutSeconds,
            state: state, keyRing: keyRing, metrics: metrics)
        self.sealer = TokenSealer(keyRing: keyRing, metrics: metrics)
        let clock = WallClock(unixClock)
        self.clock = clock
        self.upstream = ProviderCall(
            transport: transport, timeoutSeconds: upstreamTimeoutSeconds, metrics: metrics,
            logger: logger)
        self.families = GrantFamilies(
            settings: families, keyRing: keyRing, state: state, transport: transport,
            upstreamTimeoutSeconds: upstreamTimeoutSeconds, metrics: metrics, logger: logger,
            clock: clock)
        self.lifecycle = LifecycleEndpoints(
            keyRing: keyRing, upstream: upstream, families: self.families, legacy: legacy,
            metrics: metrics, introspectionLimit: introspectionLimit, clock: clock)
    }

    /// The 200 answer: the provider's members with `refresh_token` set to `refreshToken`
    /// (replacing the raw one in place, or appended), or removed when nil.
    static func success(_ response: ProviderTokenResponse, refreshToken: String?) -> HTTPResponse {
        // The provider's members in their order, `refresh_token` (at most one: the parser
        // refuses a repeated member) replaced in its place by `refreshToken`, or removed;
        // added at the end when the provider sent none. One array, made at its size.
        let ours = refreshToken.map { JSONValue.Member("refresh_token", .string($0)) }
        var members: [JSONValue.Member] = []
        members.reserveCapacity(response.members.count + 1)
        var replaced = false
        for member in response.members {
            guard member.name == "refresh_token" else {
                members.append(member)
                continue
            }
            if let ours { members.append(ours) }
            replaced = true
        }
        if let ours, !replaced { members.append(ours) }
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
    /// Every token path (CONTRACT §2, §3, §8): `/v1/swap`, `/swap`, `/v1/refresh`,
    /// `/refresh`, `/v1/token`, `/v1/revoke` (and `/v1/introspect` where it introspects)
    /// for the default provider, and the same under `/v1/<name>/` for every provider (the
    /// default included), and `/v1[/<name>]/device/code|token` for providers with a device
    /// endpoint. Paths of unconfigured names are absent, so they are 404; so are
    /// `/introspect` for a provider with introspection style `none` and the device paths
    /// of a provider without a device endpoint.
    public func routes(providers: [Provider], defaultProvider: Provider) -> [ServiceRoute] {
        typealias Awaiting =
            @Sendable (GrantEndpoints, HTTPRequest, Provider) async -> EndpointAnswer
        var routes: [ServiceRoute] = []
        func add(_ path: String, _ provider: Provider, _ handle: @escaping Awaiting) {
            let endpoints = self
            routes.append(
                ServiceRoute(
                    .post, path,
                    handler: .async(.grant) { request, _ in
                        await handle(endpoints, request, provider)
                    }))
        }
        typealias Responder =
            @Sendable (
                GrantEndpoints, HTTPRequest, Provider, ServiceContext, @escaping Endpoint.Respond
            ) -> Void
        // The hot paths (swap, refresh, the token endpoint) answer by callback; the rest
        // await, each as a task on the connection's loop.
        func add(_ path: String, _ provider: Provider, responding responder: @escaping Responder) {
            let endpoints = self
            routes.append(
                ServiceRoute(
                    .post, path,
                    handler: Endpoint(
                        .grant,
                        respond: { request, context, respond in
                            responder(endpoints, request, provider, context, respond)
                        })))
        }
        func addAll(prefix: String, _ provider: Provider) {
            add(
                prefix + "/swap", provider,
                responding: { $0.swap($1, provider: $2, completion: $4) })
            add(
                prefix + "/refresh", provider,
                responding: { $0.refresh($1, provider: $2, completion: $4) })
            add(
                prefix + "/token", provider,
                responding: { $0.token($1, provider: $2, context: $3, completion: $4) })
            add(prefix + "/revoke", provider) { await $0.lifecycle.revoke($1, provider: $2) }
            // CONTRACT §7: only providers with a device endpoint; the rest stay 404.
            if provider.device != nil {
                add(prefix + "/device/code", provider) { await $0.deviceCode($1, provider: $2) }
                add(prefix + "/device/token", provider) { await $0.deviceToken($1, provider: $2) }
            }
            if provider.lifecycle.introspects {
                add(prefix + "/introspect", provider) {
                    await $0.lifecycle.introspect($1, provider: $2)
                }
            }
        }
        addAll(prefix: "/v1", defaultProvider)
        add("/swap", defaultProvider, responding: { $0.swap($1, provider: $2, completion: $4) })
        add(
            "/refresh", defaultProvider,
            responding: { $0.refresh($1, provider: $2, completion: $4) })
        for provider in providers { addAll(prefix: "/v1/\(provider.name)", provider) }
        return routes
    }
}

extension GrantEndpoints {
    /// Runs one token request's `body` and turns its result into the answer.
    static func answer(
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
