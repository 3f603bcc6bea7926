import HTTPCore
import HTTPServer
import Logging
import Sealing
import Transport

/// The token endpoints of a service (CONTRACT §2, §7, §8) over an `UpstreamTransport`,
/// composed once: the collaborators every grant shares (the sealer, the provider call,
/// grant families, the replay window, the DPoP proof step, legacy tokens), each grant built
/// over them as a short list of named steps (`SwapGrant`, `RefreshGrant`,
/// `TokenEndpointGrant`, `DeviceAuthorizationGrant`, `DevicePollGrant`, and
/// `LifecycleEndpoints` for revocation and introspection), and their routes. Every failure
/// is a `GrantError`, turned into a response in one place (`GrantAnswer`).
public final class GrantEndpoints: Sendable {
    public let keyRing: KeyRing
    public let transport: any UpstreamTransport
    public let upstreamTimeoutSeconds: Double
    public let logger: Logger
    /// Upstream outcomes, sealing failures and opens by key id are counted here.
    public let metrics: ServiceMetrics
    /// Other swap services' tokens during a migration (CONTRACT §9).
    let legacy: LegacyTokens
    /// The state that outlives a request (CONTRACT §12): the replay window's, the device
    /// polls' schedule, revocations and generations.
    let state: any StateStore
    /// Grant families (CONTRACT §14), shared by every grant that seals a refresh token.
    let families: GrantFamilies

    // The grants, each over the collaborators it uses.
    let swapGrant: SwapGrant
    let refreshGrant: RefreshGrant
    let tokenGrant: TokenEndpointGrant
    let deviceAuthorizationGrant: DeviceAuthorizationGrant
    let devicePollGrant: DevicePollGrant
    /// Revocation and introspection (CONTRACT §8).
    let lifecycle: LifecycleEndpoints

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
        let legacy = LegacyTokens(failureLimit: legacyFailureLimit, metrics: metrics)
        self.legacy = legacy
        let state =
            state ?? MemoryStateStore(metrics: metrics, replaySeconds: refreshReplaySeconds)
        self.state = state
        // The collaborators every grant shares, made once.
        let proof = GrantProof(gate: dpop)
        let replay = ReplayWindow(
            seconds: refreshReplaySeconds, upstreamTimeoutSeconds: upstreamTimeoutSeconds,
            state: state, keyRing: keyRing, metrics: metrics)
        let sealer = TokenSealer(keyRing: keyRing, metrics: metrics)
        // The wall clock: a family's start, a device code's expiry, an introspected token's
        // `exp`; injected by tests.
        let clock = WallClock(unixClock)
        let upstream = ProviderCall(
            transport: transport, timeoutSeconds: upstreamTimeoutSeconds, metrics: metrics,
            logger: logger)
        let families = GrantFamilies(
            settings: families, keyRing: keyRing, state: state, transport: transport,
            upstreamTimeoutSeconds: upstreamTimeoutSeconds, metrics: metrics, logger: logger,
            clock: clock)
        self.families = families
        // The grants over them.
        let swap = SwapGrant(proof: proof, upstream: upstream, families: families, sealer: sealer)
        let refresh = RefreshGrant(
            proof: proof, sealer: sealer, legacy: legacy, families: families, replay: replay,
            upstream: upstream, metrics: metrics)
        let devicePoll = DevicePollGrant(
            proof: proof, sealer: sealer, families: families, replay: replay, state: state,
            upstream: upstream, clock: clock, metrics: metrics)
        self.swapGrant = swap
        self.refreshGrant = refresh
        self.devicePollGrant = devicePoll
        self.tokenGrant = TokenEndpointGrant(swap: swap, refresh: refresh, devicePoll: devicePoll)
        self.deviceAuthorizationGrant = DeviceAuthorizationGrant(
            proof: proof, deviceLimit: deviceLimit, upstream: upstream, sealer: sealer,
            families: families, clock: clock, metrics: metrics)
        self.lifecycle = LifecycleEndpoints(
            keyRing: keyRing, upstream: upstream, families: families, legacy: legacy,
            metrics: metrics, introspectionLimit: introspectionLimit, clock: clock)
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
        // The DPoP gate only where some provider reads proofs (CONTRACT §13).
        let dpop =
            configuration.providers.contains { $0.dpopMode != .off }
            ? DPoPGate(configuration: configuration, store: store, metrics: metrics) : nil
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
            dpop: dpop,
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
        typealias Awaiting = @Sendable (HTTPRequest, Provider) async -> EndpointAnswer
        var routes: [ServiceRoute] = []
        func add(_ path: String, _ provider: Provider, _ handle: @escaping Awaiting) {
            routes.append(
                ServiceRoute(
                    .post, path,
                    handler: .async(.grant) { request, _ in await handle(request, provider) }))
        }
        typealias Responder =
            @Sendable (HTTPRequest, Provider, ServiceContext, @escaping Endpoint.Respond) -> Void
        // The hot paths (swap, refresh, the token endpoint) answer by callback; the rest
        // await, each as a task on the connection's loop. Each route's closure holds its
        // grant and its provider.
        func add(_ path: String, _ provider: Provider, responding responder: @escaping Responder) {
            routes.append(
                ServiceRoute(
                    .post, path,
                    handler: Endpoint(
                        .grant,
                        respond: { request, context, respond in
                            responder(request, provider, context, respond)
                        })))
        }
        let (swap, refresh, token) = (swapGrant, refreshGrant, tokenGrant)
        let (deviceAuthorization, devicePoll) = (deviceAuthorizationGrant, devicePollGrant)
        let lifecycle = self.lifecycle
        func addAll(prefix: String, _ provider: Provider) {
            add(
                prefix + "/swap", provider,
                responding: { swap.answer($0, provider: $1, completion: $3) })
            add(
                prefix + "/refresh", provider,
                responding: { refresh.answer($0, provider: $1, completion: $3) })
            add(
                prefix + "/token", provider,
                responding: { token.answer($0, provider: $1, context: $2, completion: $3) })
            add(prefix + "/revoke", provider) { await lifecycle.revoke($0, provider: $1) }
            // CONTRACT §7: only providers with a device endpoint; the rest stay 404.
            if provider.device != nil {
                add(prefix + "/device/code", provider) {
                    await deviceAuthorization.answer($0, provider: $1)
                }
                add(prefix + "/device/token", provider) {
                    await devicePoll.answer($0, provider: $1)
                }
            }
            if provider.lifecycle.introspects {
                add(prefix + "/introspect", provider) {
                    await lifecycle.introspect($0, provider: $1)
                }
            }
        }
        addAll(prefix: "/v1", defaultProvider)
        add("/swap", defaultProvider, responding: { swap.answer($0, provider: $1, completion: $3) })
        add(
            "/refresh", defaultProvider,
            responding: { refresh.answer($0, provider: $1, completion: $3) })
        for provider in providers { addAll(prefix: "/v1/\(provider.name)", provider) }
        return routes
    }
}

extension GrantEndpoints {
    // Each endpoint's entry, for callers outside a server (tests, tools): the route's
    // grant, called as the route calls it.

    /// `POST /v1/swap` (`SwapGrant`).
    public func swap(
        _ request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        swapGrant.answer(request, provider: provider, completion: completion)
    }

    /// `POST /v1/refresh` (`RefreshGrant`).
    public func refresh(
        _ request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        refreshGrant.answer(request, provider: provider, completion: completion)
    }

    /// `POST /v1/<name>/token` (`TokenEndpointGrant`).
    public func token(
        _ request: HTTPRequest, provider: Provider, context: ServiceContext,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        tokenGrant.answer(request, provider: provider, context: context, completion: completion)
    }

    /// `POST /v1/<name>/device/code` (`DeviceAuthorizationGrant`).
    package func deviceCode(_ request: HTTPRequest, provider: Provider) async -> EndpointAnswer {
        await deviceAuthorizationGrant.answer(request, provider: provider)
    }

    /// `POST /v1/<name>/device/token` (`DevicePollGrant`).
    package func deviceToken(_ request: HTTPRequest, provider: Provider) async -> EndpointAnswer {
        await devicePollGrant.answer(request, provider: provider)
    }
}
