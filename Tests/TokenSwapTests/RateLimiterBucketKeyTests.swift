import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// Which bucket a client counts against: IPv4 by address, IPv6 by prefix (/64 by default).
@Suite struct RateLimiterBucketKeyTests {
    @Test(arguments: [
        // client, prefix length, bucket
        ("203.0.113.7", 64, "203.0.113.7"),
        ("::ffff:203.0.113.7", 64, "203.0.113.7"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64, "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", 64, "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", 64, "2001:db8:1:3::/64"),
        ("2001:db8:1:2:ff00::1", 56, "2001:db8:1::/56"),
        ("2001:db8:1:2ff::1", 56, "2001:db8:1:200::/56"),
        ("2001:db8:1:2::1", 128, "2001:db8:1:2::1"),
        ("2001:0db8:0001:0002:0000:0000:0000:0001", 128, "2001:db8:1:2::1"),
        ("::1", 64, "::/64"),
        ("unknown", 64, "unknown"),
    ])
    func bucketKey(client: String, prefix: Int, bucket: String) {
        #expect(RateLimiter.bucketKey(for: client, ipv6PrefixLength: prefix) == bucket)
    }

    /// The attack: a client rotating addresses inside its /64 got a fresh bucket each time.
    @Test func rotatingInsideOneSlash64SharesOneBucket() {
        let limiter = RateLimiter(ratePerSecond: 1, burst: 3, clock: { TokenBucketTests.at(1000) })
        let decisions = (1...50).map { limiter.take(for: "2001:db8:7:7::\(String($0, radix: 16))") }
        #expect(decisions.prefix(3).allSatisfy { $0 == .allowed })
        #expect(decisions.dropFirst(3).allSatisfy { $0 != .allowed })
        #expect(limiter.trackedClients == 1)
        // A neighbour in the next /64, and IPv4 clients, keep their own buckets.
        #expect(limiter.take(for: "2001:db8:7:8::1") == .allowed)
        #expect(limiter.take(for: "198.51.100.1") == .allowed)
        #expect(limiter.take(for: "198.51.100.2") == .allowed)
    }

    @Test func aPrefixOf128LimitsEachAddress() {
        let limiter = RateLimiter(
            ratePerSecond: 1, burst: 1, ipv6PrefixLength: 128, clock: { TokenBucketTests.at(1000) })
        #expect(limiter.take(for: "2001:db8::1") == .allowed)
        #expect(limiter.take(for: "2001:db8::2") == .allowed)
        #expect(limiter.take(for: "2001:db8::1") != .allowed)
    }

    @Test(
        arguments: [
            ("2001:db8:1:2:aaaa::1", "2001:db8:1::/48"),
            ("2001:db8:1:ffff::1", "2001:db8:1::/48"),
            ("2001:db8:2::1", "2001:db8:2::/48"),
            ("::ffff:203.0.113.7", nil), ("203.0.113.7", nil), ("unknown", nil),
        ] as [(String, String?)])
    func networkKey(client: String, network: String?) {
        #expect(RateLimiter.networkKey(for: client, prefixLength: 48) == network)
    }

    /// CONTRACT §15, the attack: one /48 holds 65,536 /64s, each a fresh client with a
    /// full burst. Its /64s together get 16 clients' worth, then the /48 is refused, while
    /// the next /48 and IPv4 clients are untouched.
    @Test func oneSlash48GetsSixteenClientsWorth() {
        let limiter = RateLimiter(
            ratePerSecond: 0.001, burst: 2, clock: { TokenBucketTests.at(1000) })
        var allowed = 0
        for subnet in 0..<200 {
            let client = "2001:db8:5:\(String(subnet, radix: 16))::1"
            for _ in 0..<3 where limiter.take(for: client) == .allowed { allowed += 1 }
        }
        #expect(allowed == 2 * RateLimiter.networkAllowanceFactor)
        #expect(limiter.take(for: "2001:db8:6::1") == .allowed)
        #expect(limiter.take(for: "198.51.100.9") == .allowed)
        #expect(limiter.trackedNetworks == 2)
    }

    /// A request the /48 refuses costs the client's own bucket nothing: once the network
    /// has refilled, the client still has its burst.
    @Test func aNetworkRefusalLeavesTheClientsBucketAlone() {
        let clock = TokenBucketTests.ManualClock()
        let limiter = RateLimiter(ratePerSecond: 1, burst: 1, clock: clock.now)
        for subnet in 0..<16 {
            #expect(limiter.take(for: "2001:db8:9:\(subnet)::1") == .allowed)
        }
        let refused = limiter.take(for: "2001:db8:9:ff::1")
        #expect(refused != .allowed)
        clock.advance(0.1)  // the /48 refills at 16 a second: one token back
        #expect(limiter.take(for: "2001:db8:9:ff::1") == .allowed)
    }

    /// A client keyed by /48 or wider needs no second count.
    @Test func prefixesOf48OrShorterHaveNoNetworkTable() {
        let limiter = RateLimiter(
            ratePerSecond: 1, burst: 1, ipv6PrefixLength: 48, clock: { TokenBucketTests.at(1000) })
        #expect(limiter.take(for: "2001:db8:1:1::1") == .allowed)
        #expect(limiter.take(for: "2001:db8:1:2::1") != .allowed)
        #expect(limiter.trackedNetworks == 0)
    }

    /// Saturating arithmetic: no rate, burst or setting traps (CONTRACT §15).
    @Test func extremeSettingsNeverTrap() {
        for rate in [0, Double.leastNonzeroMagnitude, 1e300, .infinity, .nan] {
            let limiter = RateLimiter(
                ratePerSecond: rate, burst: Int.max, clock: { TokenBucketTests.at(1000) })
            #expect(limiter.take(for: "2001:db8::1") == .allowed)
            let tiny = RateLimiter(
                ratePerSecond: rate, burst: 1, clock: { TokenBucketTests.at(1000) })
            _ = tiny.take(for: "10.0.0.1")
            guard case .limited(let seconds) = tiny.take(for: "10.0.0.1") else { continue }
            #expect((1...86_400).contains(seconds))
        }
        for perMinute in [1e300, Double.infinity, Double(Int.max), 1e15] {
            #expect(
                ClientRateLimit(
                    perMinute: perMinute, trustedProxies: TrustedProxies([]), ipv6PrefixLength: 64)?
                    .limiter.burst == Int.max)
        }
        #expect(
            ClientRateLimit(
                perMinute: .nan, trustedProxies: TrustedProxies([]), ipv6PrefixLength: 64) == nil)
    }

    /// Every per-client limit is made one way: the configuration's prefix reaches the
    /// device-code and introspection limits as it reaches `TOKENSWAP_RATE_LIMIT`'s.
    @Test func everyLimitKeysByTheConfiguredPrefix() async throws {
        let configuration = try await ServiceConfiguration.load(
            environment: [
                "TOKENSWAP_CLIENT_ID": "c", "TOKENSWAP_CLIENT_SECRET": "s",
                "TOKENSWAP_REDIRECT_URI": "myapp://cb", "TOKENSWAP_RATE_LIMIT": "5",
                "TOKENSWAP_ENCRYPTION_KEYS": GrantEndpointsFixtures.newKey,
                "TOKENSWAP_RATE_LIMIT_IPV6_PREFIX": "56",
            ])
        let limits = [
            configuration.requestRateLimit, configuration.clientRateLimit(perMinute: 10),
            configuration.clientRateLimit(
                perMinute: Double(configuration.introspectionRateLimitPerMinute)),
        ]
        for limit in limits {
            #expect(limit?.limiter.ipv6PrefixLength == 56)
        }
    }
}
