import HTTPServer
import Prometheus
import Synchronization

/// The service's metrics, in a Prometheus registry owned by this instance (not the
/// process-wide default, so several services in one test process never share counts),
/// rendered by `GET /metrics` in the text exposition format.
///
/// Every label is bounded: routes are the registered paths (404/405 count as
/// `unmatched`), providers and key ids come from the configuration, outcomes, reasons
/// and statuses are closed sets. Nothing from a request (path, header, token) is a label.
public final class ServiceMetrics: Sendable {
    package let registry: PrometheusCollectorRegistry
    private let rejections: [RejectionReason: Counter]
    private let connectionsOpen: Gauge
    private let connectionsIdle: Gauge
    private let unmatched: RouteMetrics
    /// Log lines the stdout queue dropped, copied from `logQueue` at each scrape.
    private let logLinesDropped: Counter
    private let logQueue: LogLineQueue
    private let logLinesDroppedExported = Mutex(0)
    /// Asked for open/idle connection counts at each scrape; set once the server exists.
    private let connectionSource = Mutex<(@Sendable () async -> (open: Int, idle: Int))?>(nil)
    /// Per-request series, resolved from the registry once per label set (providers and
    /// key ids come from the configuration, outcomes are a closed set, so these stay
    /// small) instead of a registry lookup with a fresh label array on every request.
    private let upstreamCounters = CounterCache<UpstreamKey>()
    private let openCounters = CounterCache<String>()
    private let deviceCodeCounters = CounterCache<String>()
    private let devicePollCounters = CounterCache<DevicePollKey>()
    /// Revocations and introspections by provider and outcome (`ServiceMetrics+Lifecycle`).
    let lifecycleCounters = CounterCache<LifecycleKey>()
    /// State store failures by operation (`ServiceMetrics+State`).
    let stateStoreErrorCounters = CounterCache<String>()

    private struct UpstreamKey: Hashable {
        let provider: String
        let outcome: UpstreamOutcome
    }

    private struct DevicePollKey: Hashable {
        let provider: String
        let outcome: DevicePollOutcome
    }

    /// - Parameter logQueue: the queue whose dropped lines are exported (stdout's).
    public init(logQueue: LogLineQueue = .standardOutput) {
        self.logQueue = logQueue
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        var rejections: [RejectionReason: Counter] = [:]
        // Registered up front so every reason is exported (as 0) from the first scrape.
        for reason in RejectionReason.allCases {
            rejections[reason] = registry.makeCounter(
                descriptor: MetricName.rejections, labels: [("reason", reason.rawValue)])
        }
        self.rejections = rejections
        connectionsOpen = registry.makeGauge(descriptor: MetricName.connectionsOpen)
        connectionsIdle = registry.makeGauge(descriptor: MetricName.connectionsIdle)
        logLinesDropped = registry.makeCounter(descriptor: MetricName.logLinesDropped)
        unmatched = RouteMetrics(
            registry: registry, route: "unmatched", method: "unmatched", timed: false)
    }

    /// The series of one route, for `RequestPipeline.wrap` to keep.
    func route(_ path: String, method: String) -> RouteMetrics {
        RouteMetrics(registry: registry, route: path, method: method)
    }

    func rejected(_ reason: RejectionReason) {
        rejections[reason]?.increment()
    }

    /// CONTRACT §10: the served certificate's expiry, set at start-up and on each reload
    /// (exported only when the main port serves TLS).
    func tlsCertificateServed(notAfterSeconds: Int64) {
        registry.makeGauge(descriptor: MetricName.tlsCertificateExpiry).set(notAfterSeconds)
    }

    func upstream(provider: String, _ outcome: UpstreamOutcome) {
        upstreamCounters.increment(UpstreamKey(provider: provider, outcome: outcome)) {
            registry.makeCounter(
                descriptor: MetricName.upstream,
                labels: [("provider", provider), ("outcome", outcome.rawValue)])
        }
    }

    func deviceCodeIssued(provider: String) {
        deviceCodeCounters.increment(provider) {
            registry.makeCounter(
                descriptor: MetricName.deviceCodes, labels: [("provider", provider)])
        }
    }

    /// A locally answered poll is a hot path (`scripts/bench device`).
    func devicePoll(provider: String, _ outcome: DevicePollOutcome) {
        devicePollCounters.increment(DevicePollKey(provider: provider, outcome: outcome)) {
            registry.makeCounter(
                descriptor: MetricName.devicePolls,
                labels: [("provider", provider), ("outcome", outcome.rawValue)])
        }
    }

    func sealingFailed(_ operation: SealingOperation, reason: String) {
        registry.makeCounter(
            descriptor: MetricName.sealingFailures,
            labels: [("operation", operation.rawValue), ("reason", reason)]
        ).increment()
    }

    /// `kid` is a key ring id: public, and bounded by the configured ring.
    func opened(keyID kid: String) {
        openCounters.increment(kid) {
            registry.makeCounter(descriptor: MetricName.opens, labels: [("kid", kid)])
        }
    }

    /// Provider and format come from the configuration, so the series stay few.
    func legacyOpened(provider: String, format: LegacyFormat) {
        registry.makeCounter(
            descriptor: MetricName.legacyOpens,
            labels: [("provider", provider), ("format", format.rawValue)]
        ).increment()
    }

    func unrouted(status: Int) {
        unmatched.count(status: status)
    }

    func malformed(status: Int, reason: String) {
        rejected(.malformed)
        registry.makeCounter(
            descriptor: MetricName.parseErrors,
            labels: [("status", String(status)), ("reason", reason)]
        ).increment()
    }

    /// Where the connection gauges come from (the service's HTTP server).
    package func attach(_ server: HTTPServer) {
        connectionSource.withLock { $0 = { await server.connectionCounts() } }
    }

    /// The text exposition, gauges and the log queue's drop count refreshed first.
    package func exposition() async -> [UInt8] {
        let dropped = logQueue.droppedLines
        let newDrops = logLinesDroppedExported.withLock { exported -> Int in
            defer { exported = max(exported, dropped) }
            return max(0, dropped - exported)
        }
        if newDrops > 0 { logLinesDropped.increment(by: Int64(newDrops)) }
        if let source = connectionSource.withLock({ $0 }) {
            let counts = await source()
            connectionsOpen.set(Double(counts.open))
            connectionsIdle.set(Double(counts.idle))
        }
        return registry.emitToBuffer()
    }
}

/// The `operation` label of `tokenswap_sealing_failures_total`.
enum SealingOperation: String, Sendable {
    case open
    case seal
}

/// Counters of one series by their label set, made in the registry on first use and
/// kept: a per-request series then costs a dictionary lookup, not a registry lookup with
/// a fresh label array. Keys come from the configuration and closed sets, so it stays
/// small.
final class CounterCache<Key: Hashable & Sendable>: Sendable {
    private let counters = Mutex<[Key: Counter]>([:])

    /// Increments the counter of `key`, made by `make` the first time.
    func increment(_ key: Key, make: () -> Counter) {
        if let counter = counters.withLock({ $0[key] }) { return counter.increment() }
        let counter = make()
        counters.withLock { $0[key] = counter }
        counter.increment()
    }
}

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

/// Why a request or connection was turned away before a handler answered: the `reason`
/// label of `tokenswap_http_rejections_total`.
package enum RejectionReason: String, Sendable, CaseIterable {
    /// Broke the framing rules or a size limit (details in the parse error series).
    case malformed
    case headerTimeout = "header_timeout"
    case bodyTimeout = "body_timeout"
    case idleTimeout = "idle_timeout"
    case writeTimeout = "write_timeout"
    /// Accepting paused at `maxConnections` (connections wait in the backlog).
    case connectionCap = "connection_cap"
    /// Accepting paused for lack of descriptors or memory.
    case acceptResources = "accept_resources"
    /// A request refused 503 because the body bytes in flight reached their budget.
    case bodyBudget = "body_budget"
    /// A connection closed at accept: its client address holds the most it may.
    case clientConnectionCap = "client_connection_cap"
    /// tokenswap's own per-client rate limit (`TOKENSWAP_RATE_LIMIT`).
    case rateLimited = "rate_limited"
}
