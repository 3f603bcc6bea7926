import Transport

/// Seen-once records (DPoP proof ids, CONTRACT §13; revoked families, §14) and the newest
/// generation of each family (§14), bounded like the replay table: at the cap the oldest
/// record goes first. In one copy's memory these end with the process, as the docs say.
extension MemoryStateStore {
    package func insertIfAbsent(
        _ key: StateKey, keepFor: Duration,
        completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        let now = clock()
        let expiresAt = Deadline.after(seconds: Self.seconds(keepFor), from: now)
        let recorded = seenTable(key).withShard(of: key) { table in
            guard table.value(for: key, now: now) == nil else { return false }
            _ = table.insert(true, for: key, expiresAt: expiresAt, now: now)
            return true
        }
        completion(.success(recorded))
    }

    package func contains(
        _ key: StateKey, completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        let now = clock()
        let found = seenTable(key).withShard(of: key) { $0.value(for: key, now: now) != nil }
        completion(.success(found))
    }

    package func raiseGeneration(
        _ key: StateKey, to generation: UInt64, keepFor: Duration,
        completion: @escaping @Sendable (Result<UInt64, StateStoreError>) -> Void
    ) {
        let now = clock()
        let expiresAt = Deadline.after(seconds: Self.seconds(keepFor), from: now)
        let before = generations.withShard(of: key) { table in
            let newest = table.value(for: key, now: now) ?? 0
            if generation > newest {
                _ = table.insert(generation, for: key, expiresAt: expiresAt, now: now)
            }
            return newest
        }
        completion(.success(before))
    }

    /// Proof ids apart from every other record: a flood of fresh proofs cannot evict a
    /// revoked family.
    private func seenTable(_ key: StateKey) -> ShardedTable<Bool> {
        key.namespace == .proofID ? proofIDs : records
    }
}
