import Prometheus

/// The replay window's series (CONTRACT §12). Both are resolved from the registry once and
/// kept (`CounterCache`, `refreshReplayEvictionCounter`): with a full table every refresh
/// evicts an entry, and a registry lookup per request would cost more than the window.
extension ServiceMetrics {
    /// Why a refresh was answered without a provider call.
    package enum ReplayReason: String, Sendable {
        /// The answer of the provider call in flight for the same token.
        case inFlight = "in_flight"
        /// A kept answer inside the window.
        case window
    }

    /// A series of `tokenswap_refresh_replays_total`.
    struct ReplayKey: Hashable, Sendable {
        let provider: String
        let reason: ReplayReason
    }

    func refreshReplayed(
        provider: String, _ reason: ReplayReason, in counters: CounterCache<ReplayKey>
    ) {
        counters.increment(ReplayKey(provider: provider, reason: reason)) {
            registry.makeCounter(
                descriptor: MetricName.refreshReplays,
                labels: [("provider", provider), ("reason", reason.rawValue)])
        }
    }

    /// `tokenswap_refresh_replay_evictions_total`, registered (and exported as 0) now: the
    /// store increments it on every eviction.
    func refreshReplayEvictionCounter() -> Counter {
        registry.makeCounter(descriptor: MetricName.refreshReplayEvictions)
    }
}
