import Synchronization

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
