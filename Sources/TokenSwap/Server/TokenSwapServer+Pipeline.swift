import Logging
import Metrics
import Prometheus

extension TokenSwapServer {
    /// The request pipeline the configuration asks for: a rate limiter when
    /// `TOKENSWAP_RATE_LIMIT` is above 0, the trusted proxies whose `X-Forwarded-For`
    /// names the client, and CORS when `TOKENSWAP_CORS_ORIGINS` lists origins.
    /// With a shared store (`sharedState`), the limit counts there (CONTRACT §12).
    static func pipeline(
        for configuration: ServiceConfiguration, logger: Logger, metrics: ServiceMetrics,
        sharedState: (any StateStore)? = nil
    ) -> RequestPipeline {
        var pipeline = RequestPipeline(
            logger: logger, metrics: metrics, rateLimiter: configuration.requestRateLimit?.limiter,
            trustedProxies: TrustedProxies(configuration.trustedProxies),
            cors: CORSPolicy(origins: configuration.corsOrigins))
        pipeline.rateLimitStore = sharedState
        return pipeline
    }

    /// Makes the process-wide swift-metrics API (`Counter(label:)` in any library) export
    /// through this service's registry; once per process, by the binary. Tests never call
    /// it, so services assembled side by side keep their own counts.
    public func bootstrapMetrics() {
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics.registry))
    }
}
