/// The grant-family series (CONTRACT §14). Counted only when reuse is detected, never on a
/// plain refresh, so the registry's own lookup is cheap enough.
extension ServiceMetrics {
    func refreshReuseDetected(provider: String) {
        registry.makeCounter(
            descriptor: MetricName.refreshReuseDetected, labels: [("provider", provider)]
        ).increment()
    }
}
