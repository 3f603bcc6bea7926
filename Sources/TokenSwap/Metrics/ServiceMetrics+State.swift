import Prometheus

extension ServiceMetrics {
    /// `tokenswap_state_store_up` (CONTRACT §12): set on every change of the store's
    /// health, exported only when a store is configured.
    func stateStore(up: Bool) {
        registry.makeGauge(descriptor: MetricName.stateStoreUp).set(Int64(up ? 1 : 0))
    }

    /// `tokenswap_state_store_errors_total{operation}`: `operation` is one of the store's
    /// fixed operation names (`StateStoreError.operation`), so the series stay few.
    func stateStoreFailed(operation: String) {
        stateStoreErrorCounters.increment(operation) {
            registry.makeCounter(
                descriptor: MetricName.stateStoreErrors, labels: [("operation", operation)])
        }
    }
}
