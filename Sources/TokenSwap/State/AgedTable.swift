import Synchronization
import Transport

/// Entries by `StateKey`, each with an expiry, kept in the order they were last written and
/// capped in count: the table under each shard of `MemoryStateStore` (CONTRACT §12: a
/// bounded number of entries per copy, the oldest evicted first).
///
/// The order is a doubly linked list threaded through one array of slots (indices, not
/// references: no allocation per entry beyond the slot, and a freed slot is reused), so
/// inserting, touching, removing and evicting the oldest are each O(1) whatever the size;
/// the O(n) scan for a minimum that `ExpiringGrantStore` does at its cap is what this
/// avoids. Expired entries are dropped when they are looked up, and a few at the old end
/// on each insert, so a quiet table shrinks without a sweep.
struct AgedTable<Value: Sendable>: Sendable {
    /// A slot's place in the order, its key and expiry: plain data, so reading one copies
    /// no reference (the value lives apart, in `values`, at the same index).
    private struct Slot: Sendable {
        var key: StateKey?
        var expiresAt: Deadline
        /// Toward the oldest entry; `none` at the old end.
        var older: Int
        /// Toward the newest entry; `none` at the new end.
        var newer: Int
    }

    private static var none: Int { -1 }
    /// How many expired entries at the old end an insert drops at most: a constant, so an
    /// insert stays O(1), and more than one, so the old end drains faster than it fills.
    private static var expiredDropsPerInsert: Int { 2 }

    let capacity: Int
    /// The most bytes the values may hold together (`byteCount` measures one); past it
    /// the oldest entries go as at the cap. Int.max: bounded by count alone.
    let byteBudget: Int
    private let byteCount: @Sendable (Value) -> Int
    private(set) var bytes = 0
    private var index: [StateKey: Int] = [:]
    private var slots: [Slot] = []
    /// The value of each slot; nil in a free one.
    private var values: [Value?] = []
    private var freeSlots: [Int] = []
    private var oldest = Self.none
    private var newest = Self.none

    init(
        capacity: Int, byteBudget: Int = .max,
        byteCount: @escaping @Sendable (Value) -> Int = { _ in 0 }
    ) {
        self.capacity = max(1, capacity)
        self.byteBudget = max(1, byteBudget)
        self.byteCount = byteCount
    }

    var count: Int { index.count }

    /// The live value of `key`; an expired one is removed and answered as absent.
    mutating func value(for key: StateKey, now: Deadline) -> Value? {
        guard let slot = index[key] else { return nil }
        guard slots[slot].expiresAt > now else {
            unlink(slot, key: key)
            return nil
        }
        return values[slot]
    }

    /// The live value of `key`; when there is none (or only an expired one), `value` is
    /// written under `key` as the newest entry, as `insert` does, and nil is answered.
    /// One lookup of the key where `value(for:)` and then `insert` take three (a claim of
    /// the replay window on every refresh, CONTRACT §12). Evicted entries are appended to
    /// `evicted`.
    mutating func valueOrInsert(
        _ value: Value, for key: StateKey, expiresAt: Deadline, now: Deadline,
        evicted: inout [(key: StateKey, value: Value)]
    ) -> Value? {
        if let slot = index[key] {
            if slots[slot].expiresAt > now { return values[slot] }
            overwrite(slot, with: value, expiresAt: expiresAt, evicted: &evicted)
            return nil
        }
        insertNew(value, for: key, expiresAt: expiresAt, now: now, evicted: &evicted)
        return nil
    }

    /// Writes `value` under `key` as the newest entry, as `insert` does, and answers the
    /// live value it replaced (nil: none, or an expired one): one lookup of the key where
    /// `value(for:)` and then `insert` take two (a settle, CONTRACT §12). Evicted entries
    /// are appended to `evicted`.
    mutating func exchange(
        _ value: Value, for key: StateKey, expiresAt: Deadline, now: Deadline,
        evicted: inout [(key: StateKey, value: Value)]
    ) -> Value? {
        guard let slot = index[key] else {
            insertNew(value, for: key, expiresAt: expiresAt, now: now, evicted: &evicted)
            return nil
        }
        let previous = slots[slot].expiresAt > now ? values[slot] : nil
        overwrite(slot, with: value, expiresAt: expiresAt, evicted: &evicted)
        return previous
    }

    /// Writes `value` under `key` as the newest entry (a key already there moves to the new
    /// end). At the cap, or past the byte budget, the oldest entries make room; evicted
    /// entries are answered so their owner can settle what they held (a waiter of an
    /// evicted claim).
    mutating func insert(_ value: Value, for key: StateKey, expiresAt: Deadline, now: Deadline)
        -> [(key: StateKey, value: Value)]
    {
        var evicted: [(key: StateKey, value: Value)] = []
        if let slot = index[key] {
            overwrite(slot, with: value, expiresAt: expiresAt, evicted: &evicted)
        } else {
            insertNew(value, for: key, expiresAt: expiresAt, now: now, evicted: &evicted)
        }
        return evicted
    }

    /// A new value in `slot`, which moves to the new end.
    private mutating func overwrite(
        _ slot: Int, with value: Value, expiresAt: Deadline,
        evicted: inout [(key: StateKey, value: Value)]
    ) {
        bytes -= values[slot].map(byteCount) ?? 0
        bytes += byteCount(value)
        values[slot] = value
        slots[slot].expiresAt = expiresAt
        moveToNewEnd(slot)
        evictOverBudget(into: &evicted)
    }

    /// `key`, known to be absent, as the newest entry; at the cap the oldest makes room.
    private mutating func insertNew(
        _ value: Value, for key: StateKey, expiresAt: Deadline, now: Deadline,
        evicted: inout [(key: StateKey, value: Value)]
    ) {
        dropExpiredAtOldEnd(now: now)
        if index.count >= capacity, let oldest = evictOldest() { evicted.append(oldest) }
        let slot: Int
        let fresh = Slot(key: key, expiresAt: expiresAt, older: newest, newer: Self.none)
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[slot] = fresh
            values[slot] = value
        } else {
            slot = slots.count
            slots.append(fresh)
            values.append(value)
        }
        if newest != Self.none { slots[newest].newer = slot }
        newest = slot
        if oldest == Self.none { oldest = slot }
        index[key] = slot
        bytes += byteCount(value)
        evictOverBudget(into: &evicted)
    }

    /// Evicts the oldest entries while the values hold more than the budget (never the
    /// newest: one answer larger than the budget is still kept alone).
    private mutating func evictOverBudget(into evicted: inout [(key: StateKey, value: Value)]) {
        while bytes > byteBudget, index.count > 1, let entry = evictOldest() {
            evicted.append(entry)
        }
    }

    private mutating func evictOldest() -> (key: StateKey, value: Value)? {
        guard oldest != Self.none, let key = slots[oldest].key, let value = values[oldest]
        else { return nil }
        unlink(oldest, key: key)
        return (key, value)
    }

    /// Changes the value of `key` in place (its age and expiry unchanged); nil when absent.
    mutating func update<Result>(_ key: StateKey, _ change: (inout Value) -> Result) -> Result? {
        guard let slot = index[key], var value = values[slot] else { return nil }
        values[slot] = nil
        bytes -= byteCount(value)
        let result = change(&value)
        bytes += byteCount(value)
        values[slot] = value
        return result
    }

    /// Removes `key` and answers its live value (nil: none, or an expired one).
    @discardableResult
    mutating func remove(_ key: StateKey, now: Deadline) -> Value? {
        guard let slot = index[key] else { return nil }
        let value = slots[slot].expiresAt > now ? values[slot] : nil
        unlink(slot, key: key)
        return value
    }

    @discardableResult
    mutating func remove(_ key: StateKey) -> Value? {
        guard let slot = index[key] else { return nil }
        let value = values[slot]
        unlink(slot, key: key)
        return value
    }

    /// The keys from the oldest to the newest (for tests of the order).
    var keysOldestFirst: [StateKey] {
        var keys: [StateKey] = []
        var slot = oldest
        while slot != Self.none {
            if let key = slots[slot].key { keys.append(key) }
            slot = slots[slot].newer
        }
        return keys
    }

    private mutating func dropExpiredAtOldEnd(now: Deadline) {
        for _ in 0..<Self.expiredDropsPerInsert {
            guard oldest != Self.none, slots[oldest].expiresAt <= now,
                let key = slots[oldest].key
            else { return }
            unlink(oldest, key: key)
        }
    }

    private mutating func moveToNewEnd(_ slot: Int) {
        guard slot != newest else { return }
        detach(slot)
        slots[slot].older = newest
        slots[slot].newer = Self.none
        if newest != Self.none { slots[newest].newer = slot }
        newest = slot
        if oldest == Self.none { oldest = slot }
    }

    /// Takes `slot` out of the order and the index and frees it (its value released now,
    /// not when the slot is reused: a kept answer holds a live access token).
    private mutating func unlink(_ slot: Int, key: StateKey) {
        bytes -= values[slot].map(byteCount) ?? 0
        detach(slot)
        index[key] = nil
        slots[slot].key = nil
        values[slot] = nil
        freeSlots.append(slot)
    }

    private mutating func detach(_ slot: Int) {
        let (older, newer) = (slots[slot].older, slots[slot].newer)
        if older != Self.none { slots[older].newer = newer } else { oldest = newer }
        if newer != Self.none { slots[newer].older = older } else { newest = older }
        slots[slot].older = Self.none
        slots[slot].newer = Self.none
    }
}

/// An `AgedTable` split into shards, each behind its own `Mutex`, so requests for different
/// keys rarely wait for each other (a refresh of one token may run on any loop, so the
/// table is process-wide, CONTRACT §12). A key's shard is read from its digest (SHA-256:
/// already uniform). Each shard holds at most `capacity / shardCount` entries, so the whole
/// table holds at most `capacity`, and the oldest entry of the shard a new key lands in is
/// the one evicted.
final class ShardedTable<Value: Sendable>: Sendable {
    /// One lock and its part of the table (a class: a `Mutex` cannot sit in an array).
    private final class Shard: Sendable {
        let table: Mutex<AgedTable<Value>>

        init(_ table: AgedTable<Value>) {
            self.table = Mutex(table)
        }
    }

    private let shards: [Shard]

    /// `byteBudget` (over all shards) bounds what the values hold by `byteCount`.
    init(
        capacity: Int, shardCount: Int, byteBudget: Int = .max,
        byteCount: @escaping @Sendable (Value) -> Int = { _ in 0 }
    ) {
        let shardCount = min(max(1, shardCount), max(1, capacity))
        let perShard = max(1, capacity / shardCount)
        let bytesPerShard = byteBudget == .max ? .max : max(1, byteBudget / shardCount)
        shards = (0..<shardCount).map { _ in
            Shard(AgedTable(capacity: perShard, byteBudget: bytesPerShard, byteCount: byteCount))
        }
    }

    /// The most entries the table holds at once.
    var capacity: Int { shards.count * (shards.first?.table.withLock { $0.capacity } ?? 0) }

    /// Entries held right now (for tests and the bound).
    var count: Int {
        shards.reduce(0) { total, shard in total + shard.table.withLock { $0.count } }
    }

    /// Runs `body` on the shard of `key`, under its lock: keep it short, and call no
    /// completion inside (a completion may come back to the store).
    func withShard<Result: Sendable>(
        of key: StateKey, _ body: (inout AgedTable<Value>) -> Result
    ) -> Result {
        shards[shardIndex(key)].table.withLock { body(&$0) }
    }

    private func shardIndex(_ key: StateKey) -> Int {
        Int(key.digestPrefix % UInt64(shards.count))
    }
}
