import Prometheus

/// One series of `/revoke` or `/introspect` outcomes: provider and outcome come from the
/// configuration and closed sets, so the label sets stay few.
struct LifecycleKey: Hashable, Sendable {
    let revocation: Bool
    let provider: String
    let outcome: String
}

extension ServiceMetrics {
    func revocation(provider: String, _ outcome: ProviderRevocationOutcome) {
        count(LifecycleKey(revocation: true, provider: provider, outcome: outcome.label))
    }

    /// `outcome`: `active`, `inactive` or `failed`.
    func introspection(provider: String, outcome: String) {
        count(LifecycleKey(revocation: false, provider: provider, outcome: outcome))
    }

    private func count(_ key: LifecycleKey) {
        lifecycleCounters.increment(key) {
            registry.makeCounter(
                descriptor: key.revocation ? MetricName.revocations : MetricName.introspections,
                labels: [("provider", key.provider), ("outcome", key.outcome)])
        }
    }
}
