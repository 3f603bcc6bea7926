import Prometheus
import Synchronization

/// The request series of one route (path and method), resolved once when the pipeline
/// wraps the route: a request then costs one histogram record and one counter lookup in
/// a dictionary keyed by status, not a registry lookup with a fresh label array.
final class RouteMetrics: Sendable {
    private let registry: PrometheusCollectorRegistry
    private let route: String
    private let method: String
    /// nil for series that are counted but not timed (`unmatched`).
    private let duration: DurationHistogram?
    private let byStatus = Mutex<[Int: Counter]>([:])

    init(registry: PrometheusCollectorRegistry, route: String, method: String, timed: Bool = true) {
        self.registry = registry
        self.route = route
        self.method = method
        self.duration =
            timed
            ? registry.makeDurationHistogram(
                descriptor: MetricName.requestDuration,
                labels: [("route", route), ("method", method)],
                buckets: MetricName.durationBuckets) : nil
    }

    func record(status: Int, duration elapsed: Duration) {
        duration?.record(elapsed)
        counter(status: status).increment()
    }

    /// Counts an answer without timing it (404/405 answered by the router).
    func count(status: Int) {
        counter(status: status).increment()
    }

    private func counter(status: Int) -> Counter {
        if let counter = byStatus.withLock({ $0[status] }) { return counter }
        // Statuses are the service's own answers (a handful per route), so this is bounded.
        let counter = registry.makeCounter(
            descriptor: MetricName.requests,
            labels: [("route", route), ("method", method), ("status", String(status))])
        byStatus.withLock { $0[status] = counter }
        return counter
    }
}
