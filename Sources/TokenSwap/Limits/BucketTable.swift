import Synchronization
import Transport

/// Token buckets by key, all with one rate and burst, safe under concurrency and bounded
/// in memory: the table behind `RateLimiter`, which keeps one for clients and one for the
/// networks that enclose them.
///
/// The table is split into shards, each behind its own `Mutex`, so requests from
/// different clients rarely wait for each other. Each shard holds at most
/// `capacity / shardCount` buckets. When a new key arrives at a full shard, every bucket
/// that has refilled completely is dropped (a full bucket is the same as no bucket); if
/// the shard is still full, its least recently used eighth is. A client rotating source
/// addresses therefore costs a bounded table, and at worst gets an evicted victim's bucket
/// back full: the limit degrades for the victim, memory never grows.
final class BucketTable: Sendable {
    let ratePerSecond: Double
    let burst: Int
    let capacity: Int
    private let shards: [Shard]

    /// One lock and its part of the table (a class: a `Mutex` cannot sit in an array).
    private final class Shard: Sendable {
        let buckets = Mutex<[String: TokenBucket]>([:])
    }

    init(ratePerSecond: Double, burst: Int, capacity: Int, shardCount: Int) {
        self.ratePerSecond = ratePerSecond
        self.burst = max(1, burst)
        let shardCount = max(1, shardCount)
        self.capacity = max(shardCount, capacity)
        self.shards = (0..<shardCount).map { _ in Shard() }
    }

    /// Takes one token from `key`'s bucket.
    func take(_ key: String, now: Deadline) -> RateDecision {
        let perShard = capacity / shards.count
        let (rate, burst) = (ratePerSecond, self.burst)
        return shards[shardIndex(key)].buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= perShard {
                Self.makeRoom(in: &buckets, limit: perShard, now: now, rate: rate, burst: burst)
            }
            var bucket = buckets[key] ?? TokenBucket(burst: burst, now: now)
            let decision = bucket.take(now: now, rate: rate, burst: burst)
            buckets[key] = bucket
            return decision
        }
    }

    /// Gives back a token just taken for a request that was refused after all (another
    /// table said no) or did not count; a bucket evicted meanwhile is already full.
    func giveBack(_ key: String) {
        let burst = self.burst
        shards[shardIndex(key)].buckets.withLock { buckets in
            buckets[key]?.giveBack(burst: burst)
        }
    }

    /// Buckets held right now (for tests and the bound).
    var count: Int {
        shards.reduce(0) { total, shard in total + shard.buckets.withLock { $0.count } }
    }

    private static func makeRoom(
        in buckets: inout [String: TokenBucket], limit: Int, now: Deadline, rate: Double, burst: Int
    ) {
        buckets = buckets.filter { !$0.value.isFull(now: now, rate: rate, burst: burst) }
        guard buckets.count >= limit else { return }
        // An eighth at once, least recently used first: the O(n log n) pass then runs once
        // per limit/8 new keys, not for each one of a flood.
        let evicted = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(
            max(1, limit / 8))
        for (key, _) in evicted { buckets[key] = nil }
    }

    private func shardIndex(_ key: String) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        return Int(UInt(bitPattern: hasher.finalize()) % UInt(shards.count))
    }
}
