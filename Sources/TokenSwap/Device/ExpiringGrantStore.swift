import Transport

/// Grants (codes, refresh tokens) by their value, each with an expiry, capped in count.
/// Inserting at the cap first drops expired entries, then the oldest: memory stays
/// bounded whatever clients do, and the newest grants are the ones kept. Expiries are
/// `Deadline`s, the monotonic clock of every duration in the service.
package struct ExpiringGrantStore<Grant: Sendable>: Sendable {
    private struct Entry: Sendable {
        var grant: Grant
        let expiresAt: Deadline
        let sequence: UInt64
    }

    package let capacity: Int
    private var entries: [String: Entry] = [:]
    private var nextSequence: UInt64 = 0

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    package var count: Int { entries.count }

    package mutating func insert(
        _ grant: Grant, for key: String, expiresAt: Deadline,
        now: Deadline
    ) {
        if entries[key] == nil, entries.count >= capacity {
            removeExpired(now: now)
            if entries.count >= capacity,
                let oldest = entries.min(by: { $0.value.sequence < $1.value.sequence })?.key
            {
                entries[oldest] = nil
            }
        }
        nextSequence += 1
        entries[key] = Entry(grant: grant, expiresAt: expiresAt, sequence: nextSequence)
    }

    /// The live grant for `key`; an expired one is removed and reported as `.expired`.
    package mutating func lookup(_ key: String, now: Deadline) -> Lookup {
        guard let entry = entries[key] else { return .absent }
        guard entry.expiresAt > now else {
            entries[key] = nil
            return .expired
        }
        return .live(entry.grant)
    }

    package enum Lookup {
        case live(Grant)
        case expired
        case absent
    }

    package mutating func update(_ key: String, _ change: (inout Grant) -> Void) {
        guard var entry = entries[key] else { return }
        change(&entry.grant)
        entries[key] = entry
    }

    @discardableResult
    package mutating func remove(_ key: String) -> Grant? {
        entries.removeValue(forKey: key)?.grant
    }

    package mutating func removeAll(where shouldRemove: (Grant) -> Bool) {
        entries = entries.filter { !shouldRemove($0.value.grant) }
    }

    package mutating func removeExpired(now: Deadline) {
        entries = entries.filter { $0.value.expiresAt > now }
    }
}
