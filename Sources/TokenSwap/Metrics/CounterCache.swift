import Prometheus
import Synchronization

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
