import Prometheus

extension ServiceMetrics {
    /// Providers come from the configuration and outcomes are a closed set, so the series
    /// stay few; the registry hands back the same counter for the same labels.
    func revocation(provider: String, _ outcome: RevocationOutcome) {
        registry.makeCounter(
            descriptor: MetricName.revocations,
            labels: [("provider", provider), ("outcome", outcome.label)]
        ).increment()
    }

    /// `outcome`: `active`, `inactive` or `failed`.
    func introspection(provider: String, outcome: String) {
        registry.makeCounter(
            descriptor: MetricName.introspections,
            labels: [("provider", provider), ("outcome", outcome)]
        ).increment()
    }
}
