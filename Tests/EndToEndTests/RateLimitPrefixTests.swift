import Foundation
import Testing

/// IPv6 clients are rate limited per /64 (TOKENSWAP_RATE_LIMIT_IPV6_PREFIX), IPv4 clients
/// per address. The clients arrive through a trusted proxy (the test's loopback
/// connection) with `X-Forwarded-For`, as they would behind a load balancer.
@Suite struct RateLimitPrefixTests {
    /// One request per 100 s after the burst: no refill while the test runs, however
    /// loaded the machine.
    static let limit = [
        "TOKENSWAP_RATE_LIMIT": "0.01", "TOKENSWAP_RATE_LIMIT_BURST": "2",
        "TOKENSWAP_TRUSTED_PROXIES": "127.0.0.1",
    ]

    /// The attack: every request from a new address inside one /64 got a fresh bucket.
    @Test func rotatingAddressesInsideOneSlash64AreOneClient() async throws {
        let server = try await OperationsTests.sandbox(Self.limit)
        var statuses: [Int] = []
        for host in 1...20 {
            statuses.append(
                try await OperationsTests.swap(
                    server.port, forwardedFor: "2001:db8:a:b::\(String(host, radix: 16))"))
        }
        #expect(statuses.prefix(2) == [400, 400])
        #expect(statuses.dropFirst(2).allSatisfy { $0 == 429 }, "\(statuses)")
        // The next /64 and IPv4 clients keep their own buckets.
        #expect(try await OperationsTests.swap(server.port, forwardedFor: "2001:db8:a:c::1") == 400)
        #expect(try await OperationsTests.swap(server.port, forwardedFor: "198.51.100.1") == 400)
        #expect(try await OperationsTests.swap(server.port, forwardedFor: "198.51.100.2") == 400)
        #expect(try await server.stop() == 0)
    }
}
