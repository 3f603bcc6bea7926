import Testing

@testable import TokenSwap

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
        let limiter = RateLimiter(ratePerSecond: 1, burst: 3, clock: { 1000 })
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
            ratePerSecond: 1, burst: 1, ipv6PrefixLength: 128, clock: { 1000 })
        #expect(limiter.take(for: "2001:db8::1") == .allowed)
        #expect(limiter.take(for: "2001:db8::2") == .allowed)
        #expect(limiter.take(for: "2001:db8::1") != .allowed)
    }
}
