import Transport

/// One shard of the replay table (CONTRACT §12): its entries (`AgedTable`) and the sealed
/// bytes of its kept answers (`KeptRing`), under one lock. Every change of an entry goes
/// through here, so an answer the table stops holding is released in the ring, and a live
/// answer the ring must overwrite (the byte budget, or a buffer at its limit) leaves the
/// table as an eviction, the oldest first, as at the entry cap.
struct ReplayShard: TableShard {
    /// What the changes of one request evicted before their time: how many entries (the
    /// metric counts them, outside the lock) and the waiters of evicted claims (told the
    /// refresh is still in flight). A full table evicts on every refresh; this allocates
    /// only for waiters, which a plain refresh's eviction has none of.
    struct Evicted {
        private(set) var count = 0
        private(set) var waiters: [ReplayWaiter] = []

        var isEmpty: Bool { count == 0 }

        fileprivate mutating func record(_ entry: ReplayEntry) {
            count += 1
            if case .inFlight(_, let held) = entry, !held.isEmpty {
                waiters += held.map(\.waiter)
            }
        }
    }

    private var table: AgedTable<ReplayEntry>
    private(set) var ring: KeptRing

    /// `capacity` entries; kept answers of at most `byteBudget` bytes together (one larger
    /// answer is kept alone).
    init(capacity: Int, byteBudget: Int) {
        table = AgedTable(capacity: capacity)
        ring = KeptRing(byteBudget: byteBudget)
    }

    var count: Int { table.count }
    var capacity: Int { table.capacity }

    /// The keys from the oldest to the newest (for tests of the order).
    var keysOldestFirst: [StateKey] { table.keysOldestFirst }

    /// `AgedTable.expiresAt(of:)` (for tests).
    func expiresAt(of key: StateKey) -> Deadline? { table.expiresAt(of: key) }

    /// A copy of the sealed bytes of the kept answer at `span`. The table holds only spans
    /// the ring holds; were one not there, the empty answer does not open and the request
    /// calls the provider (CONTRACT §12: an answer that does not open counts as absent).
    func answer(_ span: KeptRing.Span) -> [UInt8] {
        ring.bytes(span) ?? []
    }

    /// `AgedTable.value(for:now:)`.
    mutating func value(for key: StateKey, now: Deadline) -> ReplayEntry? {
        table.value(for: key, now: now)
    }

    /// `AgedTable.valueOrInsert`, releasing what it evicted.
    mutating func valueOrInsert(
        _ entry: ReplayEntry, for key: StateKey, expiresAt: Deadline, now: Deadline,
        evicted: inout Evicted
    ) -> ReplayEntry? {
        let (found, oldest) = table.valueOrInsert(entry, for: key, expiresAt: expiresAt, now: now)
        evict(oldest, into: &evicted)
        return found
    }

    /// `AgedTable.insert` of a claim (where no answer is kept: none is replaced), releasing
    /// what it evicted.
    mutating func insert(
        _ entry: ReplayEntry, for key: StateKey, expiresAt: Deadline, now: Deadline,
        evicted: inout Evicted
    ) {
        evict(table.insert(entry, for: key, expiresAt: expiresAt, now: now), into: &evicted)
    }

    /// `AgedTable.update` (of a claim's waiters: no answer changes).
    mutating func update<Result>(_ key: StateKey, _ change: (inout ReplayEntry) -> Result)
        -> Result?
    {
        table.update(key, change)
    }

    /// `AgedTable.remove(_:now:)`, releasing the answer it removed (an expired one the
    /// ring finds gone when it reaches it: `held`).
    mutating func remove(_ key: StateKey, now: Deadline) -> ReplayEntry? {
        let removed = table.remove(key, now: now)
        if case .kept(let span, _)? = removed { ring.release(span) }
        return removed
    }

    /// Keeps `answer` under `key` until `expiresAt`, settled `now`, in place of what the key
    /// held (its claim), and answers the live entry it replaced. The answer is written into
    /// the ring first, which may evict the oldest answers (`makeRoom`); then the table's
    /// entry points at it, which may evict the oldest entry at the cap.
    mutating func keep(
        _ answer: [UInt8], for key: StateKey, expiresAt: Deadline, now: Deadline,
        evicted: inout Evicted
    ) -> ReplayEntry? {
        let kept = answer.withUnsafeBytes { answer in
            keep(
                count: answer.count, for: key, expiresAt: expiresAt, now: now, evicted: &evicted
            ) { target in
                target.copyMemory(from: answer)
                return true
            }
        }
        switch kept {
        case .kept(let previous, _), .notKept(let previous): return previous
        }
    }

    /// What `keep(count:…)` did, and the live entry the key held before.
    enum Keeping {
        /// The answer is kept at `span`; the entry replaced.
        case kept(replacing: ReplayEntry?, span: KeptRing.Span)
        /// No answer is kept (`write` failed, or there was no room): the key is free, and
        /// this is the entry removed.
        case notKept(removed: ReplayEntry?)
    }

    /// `keep`, of an answer of `count` bytes that `write` writes where the ring keeps it
    /// (a kept answer sealed in place). When `write` fails, or the answer cannot be kept,
    /// the key is freed as `remove` frees it.
    mutating func keep(
        count: Int, for key: StateKey, expiresAt: Deadline, now: Deadline,
        evicted: inout Evicted, write: (UnsafeMutableRawBufferPointer) -> Bool
    ) -> Keeping {
        // `makeRoom` leaves room; were there none (or an answer longer than a span can
        // say), the answer is shared with the waiters, not kept.
        guard count <= UInt32.max else { return .notKept(removed: remove(key, now: now)) }
        makeRoom(for: count, now: now, evicted: &evicted)
        guard let span = ring.append(count: count, write: write) else {
            return .notKept(removed: remove(key, now: now))
        }
        let (previous, slot, oldest) = table.exchange(
            .kept(answer: span, settledAt: now), for: key, expiresAt: expiresAt, now: now)
        ring.assignSlot(slot)
        evict(oldest, into: &evicted)
        if case .kept(let replaced, _)? = previous { ring.release(replaced) }
        return .kept(replacing: previous, span: span)
    }

    /// Room in the ring for `count` more bytes: within the byte budget the oldest answers
    /// go first (one larger than the budget is kept alone); then, for room at the head,
    /// answers the table no longer holds go first, then the buffer grows up to the budget,
    /// then the oldest live answers go.
    private mutating func makeRoom(for count: Int, now: Deadline, evicted: inout Evicted) {
        while ring.liveByteCount + count > ring.byteBudget, ring.recordCount > 0 {
            dropOldest(now: now, evicted: &evicted)
        }
        ring.shrinkIfEmpty(for: count)
        while !ring.hasRoom(for: count) {
            if let oldest = ring.oldest, held(oldest) == nil {
                ring.dropOldest()
            } else if ring.canGrow(for: count) {
                ring.grow(for: count)
            } else {
                dropOldest(now: now, evicted: &evicted)
            }
        }
    }

    /// Drops the ring's oldest answer, and its table entry when the table still holds it
    /// (an eviction when it had not expired yet).
    private mutating func dropOldest(now: Deadline, evicted: inout Evicted) {
        guard let record = ring.oldest else { return }
        let expiresAt = held(record)
        ring.dropOldest()
        guard let expiresAt, let entry = table.remove(at: Int(record.slot)) else { return }
        if expiresAt > now { evicted.record(entry.value) }
    }

    /// When the table's entry for `record` expires, when the table still holds its answer;
    /// nil when not (released, or dropped by the table itself on expiry).
    private func held(_ record: KeptRing.Record) -> Deadline? {
        guard record.live, let stored = table.storedValue(at: Int(record.slot)),
            case .kept(let span, _) = stored.value, span == record.span
        else { return nil }
        return stored.expiresAt
    }

    /// Releases the answer of an entry the table evicted, and records the eviction.
    private mutating func evict(
        _ entry: (key: StateKey, value: ReplayEntry)?, into evicted: inout Evicted
    ) {
        guard let entry else { return }
        if case .kept(let span, _) = entry.value { ring.release(span) }
        evicted.record(entry.value)
    }
}
