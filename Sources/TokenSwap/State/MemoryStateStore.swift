import Synchronization
import Transport

/// The state of one copy, in its own memory (CONTRACT §12: the default, right for one
/// copy): the replay window and single flight of refreshes, rate-limit buckets, device-poll
/// schedules, seen-once ids and family generations.
///
/// Process-wide, because a refresh of one token may arrive on any loop; lock-striped
/// (`ShardedTable`, `BucketTable`), so different keys rarely share a lock; bounded, every
/// table capped in entries with the oldest evicted first in O(1) (`AgedTable`). Every
/// operation answers its callback before it returns (no task, no hop: the refresh hot
/// path stays a plain call), except a waiter of `awaitAnswer`, answered later by the
/// settle it waits for or by its timer (`StateTimers`), never by blocking a thread.
package final class MemoryStateStore: StateStore {
    /// The replay table: in-flight claims and kept answers (`MemoryStateStore+Replay`).
    let replay: ShardedTable<ReplayShard>
    /// DPoP proof ids (`ProofIDTable`: never evicted, refused when full).
    let proofIDs: Mutex<ProofIDTable>
    /// Revoked families (CONTRACT §14): at most `revocationCapacity`, the oldest dropped
    /// first; `check-config` and the docs give that number.
    let records: ShardedTable<AgedTable<Bool>>
    let generations: ShardedTable<AgedTable<UInt64>>
    /// Rate-limit buckets, one `BucketTable` per limit (below).
    let bucketTables = Mutex<[BucketTableKey: BucketTable]>([:])
    let bucketCapacity: Int
    let shardCount: Int
    let pollSchedule: DevicePollSchedule
    let clock: @Sendable () -> Deadline
    let timers: StateTimers
    /// Waiters one in-flight refresh may hold; a request beyond them is answered at once
    /// `.waitersFull` (503 with `Retry-After: 1`, CONTRACT §12; each waiter is a held
    /// connection, capped elsewhere too).
    let maxWaitersPerKey: Int
    private let evictionCount = Atomic<Int>(0)
    private let onEviction: @Sendable () -> Void

    /// The defaults of the tables whose size no setting names.
    /// The revocations one copy keeps without a store (CONTRACT §14), in 16 shards by
    /// digest: `revocationsSummary` prints this number.
    package static let defaultRevocationCapacity = 100_000
    package static let defaultGenerationCapacity = 100_000
    package static let defaultBucketCapacity = 100_000
    package static let defaultShardCount = 16
    package static let defaultMaxWaitersPerKey = 256
    /// The sealed answers one copy keeps, in bytes, whatever their size: with answers of
    /// a few KiB (JWT access and id tokens) the entry cap alone would outgrow the shipped
    /// container's memory limit (BENCHMARKS.md); past it the oldest are evicted as at the
    /// cap.
    package static let defaultReplayByteBudget = 96 * 1024 * 1024

    /// - Parameters:
    ///   - replayCapacity: most entries of the replay table
    ///     (`TOKENSWAP_REFRESH_REPLAY_MAX_ENTRIES`).
    ///   - replayByteBudget: most bytes its kept answers hold together.
    ///   - proofIDCapacity: most DPoP proof ids held (`TOKENSWAP_DPOP_PROOF_IDS`).
    ///   - revocationCapacity: most revoked families kept (the oldest dropped first).
    ///   - clock: now on the monotonic clock (`Deadline.now`); injected by tests.
    ///   - timers: where a waiter's timer runs (the server's loops).
    ///   - onEviction: called once per replay entry evicted at the cap (the metric).
    package init(
        replayCapacity: Int = ConfigurationDefaults.refreshReplayMaxEntries,
        replayByteBudget: Int = defaultReplayByteBudget,
        proofIDCapacity: Int = DPoPSettings.defaultProofIDs,
        revocationCapacity: Int = defaultRevocationCapacity,
        generationCapacity: Int = defaultGenerationCapacity,
        bucketCapacity: Int = defaultBucketCapacity,
        shardCount: Int = defaultShardCount,
        maxWaitersPerKey: Int = defaultMaxWaitersPerKey,
        clock: @escaping @Sendable () -> Deadline = { .now },
        timers: StateTimers = .dispatch,
        onEviction: @escaping @Sendable () -> Void = {}
    ) {
        self.replay = ShardedTable(capacity: replayCapacity, shardCount: shardCount) {
            capacity, shards in
            ReplayShard(capacity: capacity, byteBudget: max(1, replayByteBudget / shards))
        }
        self.proofIDs = Mutex(ProofIDTable(capacity: proofIDCapacity))
        self.records = ShardedTable(capacity: revocationCapacity, shardCount: shardCount)
        self.generations = ShardedTable(capacity: generationCapacity, shardCount: shardCount)
        self.bucketCapacity = bucketCapacity
        self.shardCount = max(1, shardCount)
        self.pollSchedule = DevicePollSchedule()
        self.maxWaitersPerKey = max(1, maxWaitersPerKey)
        self.clock = clock
        self.timers = timers
        self.onEviction = onEviction
    }

    /// Replay entries evicted at the cap since start.
    package var evictions: Int { evictionCount.load(ordering: .relaxed) }

    /// Replay entries held right now (claims and kept answers).
    package var replayCount: Int { replay.count }

    func evicted() {
        evictionCount.add(1, ordering: .relaxed)
        onEviction()
    }
}

extension MemoryStateStore {
    /// The store for a loaded configuration: its replay table's cap, the metric of its
    /// evictions, its proof-id table's size, and the server's loops for the timers of
    /// waiters.
    package convenience init(
        configuration: ServiceConfiguration, metrics: ServiceMetrics? = nil,
        timers: StateTimers = .dispatch
    ) {
        self.init(
            replayCapacity: configuration.refreshReplayMaxEntries,
            proofIDCapacity: configuration.dpop.proofIDs, timers: timers,
            onEviction: Self.evictionCounting(
                metrics, replaySeconds: configuration.refreshReplaySeconds))
    }

    /// A store of the default size whose evictions count into `metrics`.
    package convenience init(metrics: ServiceMetrics, replaySeconds: Int) {
        self.init(onEviction: Self.evictionCounting(metrics, replaySeconds: replaySeconds))
    }

    /// Counts evictions into `tokenswap_refresh_replay_evictions_total`, resolved once;
    /// with the window off the series is not registered (nothing is ever kept).
    private static func evictionCounting(_ metrics: ServiceMetrics?, replaySeconds: Int)
        -> @Sendable () -> Void
    {
        guard replaySeconds > 0, let counter = metrics?.refreshReplayEvictionCounter() else {
            return {}
        }
        return { counter.increment() }
    }
}

/// Seen-once records (DPoP proof ids, CONTRACT §13; revoked families, §14) and the newest
/// generation of each family (§14). Revoked families and generations are bounded like the
/// replay table (at the cap the oldest goes first); proof ids are never dropped before
/// they expire (`ProofIDTable`). In one copy's memory these end with the process, as the
/// docs say.
extension MemoryStateStore {
    package func recordProofID(
        _ key: StateKey, client: ClientPrefix, keepFor: Duration,
        completion: @escaping @Sendable (Result<ProofIDRecording, StateStoreError>) -> Void
    ) {
        completion(.success(recordProofID(key, client: client, keepFor: keepFor)))
    }

    /// `recordProofID`, answered by its value. The clock is read under the lock, so ids
    /// enter the table in the order they expire.
    func recordProofID(_ key: StateKey, client: ClientPrefix, keepFor: Duration)
        -> ProofIDRecording
    {
        proofIDs.withLock { table in
            let now = clock()
            return table.record(
                key, client: client, expiresAt: Deadline.after(keepFor, from: now), now: now)
        }
    }

    /// A proof id recorded without its client counts as `ClientPrefix.unknown`'s, and no
    /// room is a failure (the answer has no other way to say it).
    package func insertIfAbsent(
        _ key: StateKey, keepFor: Duration,
        completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        guard key.namespace != .proofID else {
            switch recordProofID(key, client: .unknown, keepFor: keepFor) {
            case .recorded: return completion(.success(true))
            case .seenBefore: return completion(.success(false))
            case .noRoom:
                return completion(
                    .failure(StateStoreError(operation: "insert", reason: "no room for proof ids")))
            }
        }
        let now = clock()
        let expiresAt = Deadline.after(keepFor, from: now)
        // One lookup of the key (`valueOrInsert`). Evicted records need no settling, so
        // none is kept.
        let recorded = records.withShard(of: key) { table in
            table.valueOrInsert(true, for: key, expiresAt: expiresAt, now: now).found == nil
        }
        completion(.success(recorded))
    }

    package func contains(
        _ key: StateKey, completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        guard key.namespace != .proofID else {
            let found = proofIDs.withLock { $0.contains(key, now: clock()) }
            return completion(.success(found))
        }
        let now = clock()
        let found = records.withShard(of: key) { $0.value(for: key, now: now) != nil }
        completion(.success(found))
    }

    package func raiseGeneration(
        _ key: StateKey, to generation: UInt64, keepFor: Duration,
        completion: @escaping @Sendable (Result<UInt64, StateStoreError>) -> Void
    ) {
        let now = clock()
        let expiresAt = Deadline.after(keepFor, from: now)
        let before = generations.withShard(of: key) { table in
            let newest = table.value(for: key, now: now) ?? 0
            if generation > newest {
                _ = table.insert(generation, for: key, expiresAt: expiresAt, now: now)
            }
            return newest
        }
        completion(.success(before))
    }
}

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
