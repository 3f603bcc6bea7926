import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Token buckets per client (`TOKENSWAP_RATE_LIMIT` per second, burst
/// `TOKENSWAP_RATE_LIMIT_BURST`), safe under concurrency and bounded in memory. A client
/// is an IPv4 address, or an IPv6 prefix (`TOKENSWAP_RATE_LIMIT_IPV6_PREFIX`, /64 by
/// default): one host holds a whole /64 and picks any address in it, so keying on the
/// full address gave a rotating client a fresh bucket per request (and let it evict
/// real clients' buckets).
///
/// The table is split into shards, each behind its own `Mutex`, so requests from
/// different clients rarely wait for each other. Each shard holds at most
/// `capacity / shardCount` buckets. When a new client arrives at a full shard, every
/// bucket that has refilled completely is dropped (a full bucket is the same as no
/// bucket); if the shard is still full, its least recently used eighth is. A client
/// rotating source addresses therefore costs a bounded table, and at worst gets an
/// evicted victim's bucket back full: the limit degrades for the victim, memory never
/// grows.
public final class RateLimiter: Sendable {
    public let ratePerSecond: Double
    public let burst: Int
    public let capacity: Int
    /// IPv6 clients are counted per prefix of this many bits.
    public let ipv6PrefixLength: Int
    private let shards: [Shard]
    private let clock: @Sendable () -> Double

    /// One lock and its part of the table (a class: a `Mutex` cannot sit in an array).
    private final class Shard: Sendable {
        let buckets = Mutex<[String: TokenBucket]>([:])
    }

    /// - Parameters:
    ///   - capacity: most clients tracked at once, over all shards.
    ///   - ipv6PrefixLength: bits of an IPv6 address that name one client (1 to 128).
    ///   - clock: monotonic seconds; injected by tests.
    public init(
        ratePerSecond: Double, burst: Int, capacity: Int = 100_000, shardCount: Int = 16,
        ipv6PrefixLength: Int = ConfigurationDefaults.rateLimitIPv6PrefixLength,
        clock: @escaping @Sendable () -> Double = RateLimiter.monotonicSeconds
    ) {
        self.ratePerSecond = ratePerSecond
        self.burst = max(1, burst)
        self.ipv6PrefixLength = min(128, max(1, ipv6PrefixLength))
        let shardCount = max(1, shardCount)
        self.capacity = max(shardCount, capacity)
        self.shards = (0..<shardCount).map { _ in Shard() }
        self.clock = clock
    }

    /// Takes one request's token for `client` (an address).
    public func take(for client: String) -> RateDecision {
        let client = Self.bucketKey(for: client, ipv6PrefixLength: ipv6PrefixLength)
        let now = clock()
        let perShard = capacity / shards.count
        let (rate, burst) = (ratePerSecond, self.burst)
        return shards[shardIndex(client)].buckets.withLock { buckets in
            if buckets[client] == nil, buckets.count >= perShard {
                Self.makeRoom(in: &buckets, limit: perShard, now: now, rate: rate, burst: burst)
            }
            var bucket = buckets[client] ?? TokenBucket(burst: burst, now: now)
            let decision = bucket.take(now: now, rate: rate, burst: burst)
            buckets[client] = bucket
            return decision
        }
    }

    /// Gives back the token `take` took for `client`, for a limit that counts outcomes
    /// known only later (CONTRACT §9's failed legacy opens: each attempt takes a token
    /// before decoding, so concurrent attempts cannot pass the limit together, and one
    /// that did not fail gives it back). A bucket evicted meanwhile is already full.
    public func giveBack(for client: String) {
        let client = Self.bucketKey(for: client, ipv6PrefixLength: ipv6PrefixLength)
        let burst = self.burst
        shards[shardIndex(client)].buckets.withLock { buckets in
            buckets[client]?.giveBack(burst: burst)
        }
    }

    /// Buckets held right now (for tests and the bound).
    public var trackedClients: Int {
        shards.reduce(0) { total, shard in total + shard.buckets.withLock { $0.count } }
    }

    private static func makeRoom(
        in buckets: inout [String: TokenBucket], limit: Int, now: Double, rate: Double, burst: Int
    ) {
        buckets = buckets.filter { !$0.value.isFull(now: now, rate: rate, burst: burst) }
        guard buckets.count >= limit else { return }
        // An eighth at once, least recently used first: the O(n log n) pass then runs once
        // per limit/8 new clients, not for each one of a flood.
        let evicted = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(
            max(1, limit / 8))
        for (client, _) in evicted { buckets[client] = nil }
    }

    private func shardIndex(_ client: String) -> Int {
        var hasher = Hasher()
        hasher.combine(client)
        return Int(UInt(bitPattern: hasher.finalize()) % UInt(shards.count))
    }

    /// Seconds since boot (CLOCK_MONOTONIC): never jumps with the wall clock.
    public static let monotonicSeconds: @Sendable () -> Double = {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
