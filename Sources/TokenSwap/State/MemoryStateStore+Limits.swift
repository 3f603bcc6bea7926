import Transport

/// The rate limits and device polls of one copy: today's `BucketTable` and
/// `DevicePollSchedule`, keyed by `StateKey` (CONTRACT §12: per copy unless a shared store
/// is set), so their behaviour is the one the service had before the state interface.
extension MemoryStateStore {
    /// One bucket table per limit: the rate and burst a caller names (a closed set, from
    /// the configuration).
    struct BucketTableKey: Hashable, Sendable {
        let ratePerSecondBits: UInt64
        let burst: Int

        init(_ limit: BucketLimit) {
            ratePerSecondBits = limit.ratePerSecond.bitPattern
            burst = limit.burst
        }
    }

    package func take(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<RateDecision, StateStoreError>) -> Void
    ) {
        completion(.success(bucketTable(for: limit).take(key.description, now: clock())))
    }

    package func giveBack(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        bucketTable(for: limit).giveBack(key.description)
        completion(.success(()))
    }

    package func poll(
        _ key: StateKey, initialInterval: Int, lifetime: Duration,
        completion:
            @escaping @Sendable (Result<DevicePollSchedule.Decision, StateStoreError>)
            -> Void
    ) {
        let decision = pollSchedule.poll(
            key.description, initialInterval: initialInterval, lifetime: lifetime, now: clock())
        completion(.success(decision))
    }

    package func providerAskedToSlowDown(
        _ key: StateKey, completion: @escaping @Sendable (Result<Int?, StateStoreError>) -> Void
    ) {
        completion(.success(pollSchedule.providerAskedToSlowDown(key.description)))
    }

    package func finishPolling(
        _ key: StateKey, completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        pollSchedule.finish(key.description)
        completion(.success(()))
    }

    /// The table of `limit`, made on its first use.
    private func bucketTable(for limit: BucketLimit) -> BucketTable {
        let tableKey = BucketTableKey(limit)
        let (capacity, shardCount) = (bucketCapacity, shardCount)
        return bucketTables.withLock { tables in
            if let table = tables[tableKey] { return table }
            let table = BucketTable(
                ratePerSecond: limit.ratePerSecond, burst: limit.burst, capacity: capacity,
                shardCount: shardCount)
            tables[tableKey] = table
            return table
        }
    }
}
