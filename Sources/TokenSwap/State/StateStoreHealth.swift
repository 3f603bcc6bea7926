import Logging
import Synchronization

/// Whether the shared store answers (CONTRACT §12): flipped by the outcome of every store
/// call and of `FailoverStateStore`'s periodic PING. Each change is logged once, as one
/// warning line when the store goes away and one when it is back, never one per request;
/// `tokenswap_state_store_up` follows it and every failed call counts in
/// `tokenswap_state_store_errors_total{operation}`.
package final class StateStoreHealth: Sendable {
    private let up = Atomic<Bool>(true)
    private let logger: Logger
    private let metrics: ServiceMetrics
    /// Where state lives, for the log lines (no credentials: `StateSettings.location`).
    private let location: String

    package init(logger: Logger, metrics: ServiceMetrics, location: String) {
        self.logger = logger
        self.metrics = metrics
        self.location = location
        metrics.stateStore(up: true)
    }

    package var isUp: Bool { up.load(ordering: .acquiring) }

    /// A call answered: when the store was down, it is back (logged once).
    package func succeeded() {
        guard !up.load(ordering: .relaxed) else { return }
        if up.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
            .exchanged
        {
            metrics.stateStore(up: true)
            logger.warning(
                "state store is back; shared state resumes", metadata: ["store": "\(location)"])
        }
    }

    /// A call failed: counted, and when the store was up, it is down now (logged once,
    /// with the class of failure: `StateStoreError` never holds a key or a value).
    package func failed(_ error: StateStoreError) {
        metrics.stateStoreFailed(operation: error.operation)
        if up.compareExchange(expected: true, desired: false, ordering: .acquiringAndReleasing)
            .exchanged
        {
            metrics.stateStore(up: false)
            logger.warning(
                "state store is unreachable; until it is back, \(Self.consequence)",
                metadata: ["store": "\(location)", "reason": "\(error.reason)"])
        }
    }

    /// What the outage means for requests, in the outage line.
    private static let consequence =
        "TOKENSWAP_STATE_FAILURE decides: open serves from this copy's memory, closed answers 503"
}
