import Transport

/// Token buckets per client (`TOKENSWAP_RATE_LIMIT` per second, burst
/// `TOKENSWAP_RATE_LIMIT_BURST`), safe under concurrency and bounded in memory
/// (`BucketTable`). A client is an IPv4 address, or an IPv6 prefix
/// (`TOKENSWAP_RATE_LIMIT_IPV6_PREFIX`, /64 by default): one host holds a whole /64 and
/// picks any address in it, so keying on the full address gave a rotating client a fresh
/// bucket per request (and let it evict real clients' buckets).
///
/// One allocation usually holds far more than a /64: a site gets a /48, which is 65,536
/// /64s, each a fresh client. So an IPv6 client's request also counts against its
/// enclosing /48, which may make 16 times one client's allowance (CONTRACT §15); a request
/// either table refuses is refused, and costs the other table nothing.
public final class RateLimiter: Sendable {
    package let ratePerSecond: Double
    package let burst: Int
    package let capacity: Int
    /// IPv6 clients are counted per prefix of this many bits.
    package let ipv6PrefixLength: Int
    private let clients: BucketTable
    /// The enclosing networks' allowance; nil when a client is already a /48 or wider.
    private let networks: BucketTable?
    private let clock: @Sendable () -> Deadline

    /// The network every IPv6 client also counts against, and how many clients' worth of
    /// requests it may make.
    static let networkPrefixLength = IPv6Site.prefixLength
    static let networkAllowanceFactor = IPv6Site.allowanceFactor

    /// - Parameters:
    ///   - capacity: most clients tracked at once, over all shards (and as many networks).
    ///   - ipv6PrefixLength: bits of an IPv6 address that name one client (1 to 128).
    ///   - clock: now on the monotonic clock of every duration (`Deadline.now`); injected
    ///     by tests.
    package init(
        ratePerSecond: Double, burst: Int, capacity: Int = 100_000, shardCount: Int = 16,
        ipv6PrefixLength: Int = ConfigurationDefaults.rateLimitIPv6PrefixLength,
        clock: @escaping @Sendable () -> Deadline = { .now }
    ) {
        self.ratePerSecond = ratePerSecond
        self.burst = max(1, burst)
        self.ipv6PrefixLength = min(128, max(1, ipv6PrefixLength))
        self.clients = BucketTable(
            ratePerSecond: ratePerSecond, burst: self.burst, capacity: capacity,
            shardCount: shardCount)
        self.capacity = clients.capacity
        if self.ipv6PrefixLength > Self.networkPrefixLength {
            // Saturating: a burst near Int.max (a setting) must not trap when multiplied.
            let (networkBurst, overflow) = self.burst.multipliedReportingOverflow(
                by: Self.networkAllowanceFactor)
            self.networks = BucketTable(
                ratePerSecond: ratePerSecond * Double(Self.networkAllowanceFactor),
                burst: overflow ? Int.max : networkBurst, capacity: capacity,
                shardCount: shardCount)
        } else {
            self.networks = nil
        }
        self.clock = clock
    }

    /// Takes one request's token for `client` (an address).
    package func take(for client: String) -> RateDecision {
        let (key, network) = keys(for: client)
        let now = clock()
        let decision = clients.take(key, now: now)
        guard decision == .allowed, let networks, let network else { return decision }
        let networkDecision = networks.take(network, now: now)
        if networkDecision != .allowed { clients.giveBack(key) }
        return networkDecision
    }

    /// Gives back the token `take(for:)` took for `client`, for a limit that counts
    /// outcomes known only later (a right user code where only wrong ones count, a legacy
    /// open that did not fail): the attempt takes first, so concurrent attempts cannot
    /// pass the limit together, and one that does not count gives it back.
    package func giveBack(for client: String) {
        let (key, network) = keys(for: client)
        clients.giveBack(key)
        if let networks, let network { networks.giveBack(network) }
    }

    /// `client`'s bucket and, when networks are counted, its network's: the address is
    /// parsed once for both.
    func keys(for client: String) -> (client: String, network: String?) {
        guard let address = AddressPrefix.parseAddress(client) else { return (client, nil) }
        let network =
            networks == nil
            ? nil : Self.networkKey(for: address, prefixLength: Self.networkPrefixLength)
        return (Self.bucketKey(for: address, ipv6PrefixLength: ipv6PrefixLength), network)
    }

    /// A client's bucket, for a shared store (`ClientRateLimit`).
    var clientLimit: BucketLimit { BucketLimit(ratePerSecond: ratePerSecond, burst: burst) }

    /// Its network's bucket, as `networks` counts it; nil when networks are not counted.
    var networkLimit: BucketLimit? {
        guard let networks else { return nil }
        return BucketLimit(ratePerSecond: networks.ratePerSecond, burst: networks.burst)
    }

    /// Client buckets held right now (for tests and the bound).
    package var trackedClients: Int { clients.count }

    /// Network buckets held right now.
    var trackedNetworks: Int { networks?.count ?? 0 }
}

/// What the rate limiter says about one request.
package enum RateDecision: Sendable, Equatable {
    case allowed
    /// Over the limit: `Retry-After` in whole seconds, 1 or more.
    case limited(retryAfterSeconds: Int)
}

extension RateLimiter {
    /// The bucket `client` counts against: an IPv4 address (IPv4-mapped IPv6 included) is
    /// its own bucket; an IPv6 address is its network, the first `ipv6PrefixLength` bits,
    /// written `2001:db8:1:2::/64`. Anything else (`unknown`) is used as it is.
    static func bucketKey(for client: String, ipv6PrefixLength: Int) -> String {
        guard let address = AddressPrefix.parseAddress(client) else { return client }
        return bucketKey(for: address, ipv6PrefixLength: ipv6PrefixLength)
    }

    static func bucketKey(for address: IPAddress, ipv6PrefixLength: Int) -> String {
        guard !address.isIPv4, ipv6PrefixLength < 128 else { return address.description }
        return address.masked(toPrefixLength: ipv6PrefixLength).description
            + "/\(ipv6PrefixLength)"
    }

    /// The network an IPv6 `client` also counts against (`2001:db8:1::/48`); nil for IPv4
    /// and anything that is not an address.
    static func networkKey(for client: String, prefixLength: Int) -> String? {
        AddressPrefix.parseAddress(client).flatMap {
            networkKey(for: $0, prefixLength: prefixLength)
        }
    }

    static func networkKey(for address: IPAddress, prefixLength: Int) -> String? {
        guard !address.isIPv4 else { return nil }
        return address.masked(toPrefixLength: prefixLength).description + "/\(prefixLength)"
    }
}
