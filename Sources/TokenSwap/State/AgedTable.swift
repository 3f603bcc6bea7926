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
///
/// The index from key to slot is a `Dictionary`: Swift's hash is seeded per process, so
/// nobody outside it can aim keys at one bucket.
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
    /// The slot of each key.
    private var index: [StateKey: Int] = [:]
    private var slots: [Slot] = []
    /// The value of each slot; nil in a free one.
    private var values: [Value?] = []
    private var freeSlots: [Int] = []
    private var oldest = Self.none
    private var newest = Self.none

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { index.count }

    /// The value in `slot` and its expiry, live or not; nil when the slot is free.
    func storedValue(at slot: Int) -> (value: Value, expiresAt: Deadline)? {
        guard slot >= 0, slot < values.count, let value = values[slot] else { return nil }
        return (value, slots[slot].expiresAt)
    }

    /// Removes the entry in `slot` and answers it; nil when the slot is free.
    @discardableResult
    mutating func remove(at slot: Int) -> (key: StateKey, value: Value)? {
        guard slot >= 0, slot < values.count, let key = slots[slot].key, let value = values[slot]
        else { return nil }
        unlink(slot, key: key)
        return (key, value)
    }

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
    /// written under `key` as the newest entry, as `insert` does, and nil is answered, with
    /// the entry an insert at the cap evicted. One lookup of the key where `value(for:)` and
    /// then `insert` take three (a claim of the replay window on every refresh, a proof id
    /// seen once: CONTRACT §12, §13). What was evicted is answered, not collected, so a
    /// caller that needs nothing of it allocates nothing.
    mutating func valueOrInsert(
        _ value: Value, for key: StateKey, expiresAt: Deadline, now: Deadline
    ) -> (found: Value?, evicted: (key: StateKey, value: Value)?) {
        if let slot = index[key] {
            if slots[slot].expiresAt > now { return (values[slot], nil) }
            overwrite(slot, with: value, expiresAt: expiresAt)
            return (nil, nil)
        }
        return (nil, insertNew(value, for: key, expiresAt: expiresAt, now: now).evicted)
    }

    /// Writes `value` under `key` as the newest entry, as `insert` does, and answers the
    /// live value it replaced (nil: none, or an expired one), the entry's slot
    /// (`storedValue(at:)`, `remove(at:)`: a slot stays the entry's until it is removed) and
    /// the entry an insert at the cap evicted: one lookup of the key (a settle, CONTRACT §12).
    mutating func exchange(
        _ value: Value, for key: StateKey, expiresAt: Deadline, now: Deadline
    ) -> (previous: Value?, slot: Int, evicted: (key: StateKey, value: Value)?) {
        guard let slot = index[key] else {
            let (slot, evicted) = insertNew(value, for: key, expiresAt: expiresAt, now: now)
            return (nil, slot, evicted)
        }
        let previous = slots[slot].expiresAt > now ? values[slot] : nil
        overwrite(slot, with: value, expiresAt: expiresAt)
        return (previous, slot, nil)
    }

    /// Writes `value` under `key` as the newest entry (a key already there moves to the new
    /// end). At the cap the oldest entry makes room; it is answered so its owner can settle
    /// what it held (a waiter of an evicted claim).
    @discardableResult
    mutating func insert(_ value: Value, for key: StateKey, expiresAt: Deadline, now: Deadline)
        -> (key: StateKey, value: Value)?
    {
        if let slot = index[key] {
            overwrite(slot, with: value, expiresAt: expiresAt)
            return nil
        }
        return insertNew(value, for: key, expiresAt: expiresAt, now: now).evicted
    }

    /// Writes `value` under `key`, known to be absent, as the newest entry, and drops
    /// nothing: neither an expired entry (an owner that must see each one that leaves drops
    /// them itself, `removeOldest(expiredBy:)`) nor, at the cap, the oldest (false then,
    /// and nothing is written).
    mutating func insertAbsent(_ value: Value, for key: StateKey, expiresAt: Deadline) -> Bool {
        guard count < capacity, index[key] == nil else { return false }
        insertNew(value, for: key, expiresAt: expiresAt, now: nil)
        return true
    }

    /// A new value in `slot`, which moves to the new end.
    private mutating func overwrite(_ slot: Int, with value: Value, expiresAt: Deadline) {
        values[slot] = value
        slots[slot].expiresAt = expiresAt
        moveToNewEnd(slot)
    }

    /// `key`, known to be absent, as the newest entry, after up to two expired entries at
    /// the old end are dropped (none when `now` is nil); at the cap the oldest makes room.
    /// Answers the entry's slot and the entry evicted, if one was.
    @discardableResult
    private mutating func insertNew(
        _ value: Value, for key: StateKey, expiresAt: Deadline, now: Deadline?
    ) -> (slot: Int, evicted: (key: StateKey, value: Value)?) {
        if let now { dropExpiredAtOldEnd(now: now) }
        let evicted = count >= capacity ? evictOldest() : nil
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
        return (slot, evicted)
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
        let result = change(&value)
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

    /// When the entry of `key` expires, live or not; nil when there is none (for tests of
    /// what left the table, and why).
    func expiresAt(of key: StateKey) -> Deadline? {
        index[key].map { slots[$0].expiresAt }
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

    /// When the oldest entry expires; nil when the table is empty.
    var oldestExpiresAt: Deadline? {
        oldest == Self.none ? nil : slots[oldest].expiresAt
    }

    /// Removes the oldest entry if it has expired by `now` and answers it; nil when the
    /// oldest is live (or there is none). For an owner that must learn of every entry that
    /// leaves (the proof-id table's counts per client), where `insert` drops expired ones
    /// unseen.
    mutating func removeOldest(expiredBy now: Deadline) -> (key: StateKey, value: Value)? {
        guard oldest != Self.none, slots[oldest].expiresAt <= now else { return nil }
        return evictOldest()
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

/// What one shard of a `ShardedTable` holds: a table, or a table with what its values
/// point into (`ReplayShard`).
protocol TableShard: Sendable {
    var count: Int { get }
    var capacity: Int { get }
}

extension AgedTable: TableShard {}

/// Tables split into shards, each behind its own `Mutex`, so requests for different
/// keys rarely wait for each other (a refresh of one token may run on any loop, so the
/// table is process-wide, CONTRACT §12). A key's shard is read from its digest (SHA-256:
/// already uniform). Each shard holds at most `capacity / shardCount` entries, so the whole
/// table holds at most `capacity`, and the oldest entry of the shard a new key lands in is
/// the one evicted.
final class ShardedTable<Part: TableShard>: Sendable {
    /// One lock and its part of the table (a class: a `Mutex` cannot sit in an array).
    private final class Shard: Sendable {
        let part: Mutex<Part>

        init(_ part: Part) {
            self.part = Mutex(part)
        }
    }

    private let shards: [Shard]

    /// `capacity` entries over `shardCount` shards (fewer when the capacity is smaller),
    /// each made by `shard` from its entry cap and the number of shards.
    init(capacity: Int, shardCount: Int, shard: (_ capacity: Int, _ shardCount: Int) -> Part) {
        let shardCount = min(max(1, shardCount), max(1, capacity))
        let perShard = max(1, capacity / shardCount)
        shards = (0..<shardCount).map { _ in Shard(shard(perShard, shardCount)) }
    }

    /// Plain tables of `capacity` entries in all.
    convenience init<Value>(capacity: Int, shardCount: Int) where Part == AgedTable<Value> {
        self.init(capacity: capacity, shardCount: shardCount) { capacity, _ in
            AgedTable(capacity: capacity)
        }
    }

    /// The most entries the table holds at once.
    var capacity: Int { shards.count * (shards.first?.part.withLock { $0.capacity } ?? 0) }

    /// Entries held right now (for tests and the bound).
    var count: Int {
        shards.reduce(0) { total, shard in total + shard.part.withLock { $0.count } }
    }

    /// Runs `body` on the shard of `key`, under its lock: keep it short, and call no
    /// completion inside (a completion may come back to the store).
    func withShard<Result: Sendable>(of key: StateKey, _ body: (inout Part) -> Result) -> Result {
        shards[shardIndex(key)].part.withLock { body(&$0) }
    }

    private func shardIndex(_ key: StateKey) -> Int {
        Int(key.digestPrefix % UInt64(shards.count))
    }
}
