/// The replay window's series (CONTRACT §12). Counted only when a refresh is replayed or
/// an entry evicted, never on a plain refresh, so the registry's own lookup is cheap enough.
extension ServiceMetrics {
    /// Why a refresh was answered without a provider call.
    package enum ReplayReason: String, Sendable {
        /// The answer of the provider call in flight for the same token.
        case inFlight = "in_flight"
        /// A kept answer inside the window.
        case window
    }

    func refreshReplayed(provider: String, _ reason: ReplayReason) {
        registry.makeCounter(
            descriptor: MetricName.refreshReplays,
            labels: [("provider", provider), ("reason", reason.rawValue)]
        ).increment()
    }

    func refreshReplayEvicted() {
        registry.makeCounter(descriptor: MetricName.refreshReplayEvictions).increment()
    }

    /// Exports the eviction counter (as 0) from the first scrape, when the window is on.
    func registerReplayMetrics() {
        _ = registry.makeCounter(descriptor: MetricName.refreshReplayEvictions)
    }
}
