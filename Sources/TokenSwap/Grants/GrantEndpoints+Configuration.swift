import Logging

extension TokenEndpoints {
    /// The service for a loaded configuration: its key ring and upstream deadline, with
    /// `transport` the real `HTTPClient` or, with `--sandbox`, the `SandboxProvider`.
    public convenience init(
        configuration: ServiceConfiguration, transport: any UpstreamTransport, logger: Logger,
        metrics: ServiceMetrics = ServiceMetrics()
    ) {
        self.init(
            keyRing: configuration.keyRing, transport: transport,
            upstreamTimeoutSeconds: configuration.upstreamTimeoutSeconds, logger: logger,
            metrics: metrics,
            deviceLimit: configuration.clientRateLimit(
                perMinute: configuration.deviceRateLimitPerMinute),
            introspectionLimit: configuration.clientRateLimit(
                perMinute: Double(configuration.introspectionRateLimitPerMinute)),
            legacyFailureLimit: configuration.clientRateLimit(
                perMinute: Double(configuration.legacyFailureLimitPerMinute)))
    }

    /// Every token route of the configuration's providers.
    public func routes(for configuration: ServiceConfiguration) -> [ServiceRoute] {
        routes(providers: configuration.providers, defaultProvider: configuration.defaultProvider)
    }
}
