import Foundation
import Testing

/// IPv6 clients are rate limited per /64 (TOKENSWAP_RATE_LIMIT_IPV6_PREFIX), IPv4 clients
/// per address. The clients arrive through a trusted proxy (the test's loopback
/// connection) with `X-Forwarded-For`, as they would behind a load balancer.
@Suite(.resourceClass(.processes)) struct RateLimitPrefixTests {
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

    /// CONTRACT §15: a /48 holds 65,536 /64s, each once a fresh client. Now its /64s
    /// together get 16 clients' worth (burst 1 here: 16 requests), then the /48 is refused;
    /// the next /48 is not.
    @Test func oneSlash48CannotMintFreshClients() async throws {
        var limit = Self.limit
        limit["TOKENSWAP_RATE_LIMIT_BURST"] = "1"
        // The /48 refills at 16 times the client rate: slow enough that 24 requests on a
        // loaded machine (seconds, not milliseconds) never earn it another token.
        limit["TOKENSWAP_RATE_LIMIT"] = "0.001"
        let server = try await OperationsTests.sandbox(limit)
        var statuses: [Int] = []
        for subnet in 1...24 {
            statuses.append(
                try await OperationsTests.swap(
                    server.port, forwardedFor: "2001:db8:a:\(String(subnet, radix: 16))::1"))
        }
        #expect(statuses.prefix(16).allSatisfy { $0 == 400 }, "\(statuses)")
        #expect(statuses.dropFirst(16).allSatisfy { $0 == 429 }, "\(statuses)")
        #expect(try await OperationsTests.swap(server.port, forwardedFor: "2001:db8:b::1") == 400)
        #expect(try await server.stop() == 0)
    }

    /// `TOKENSWAP_DEVICE_RATE_LIMIT` and `TOKENSWAP_INTROSPECTION_RATE_LIMIT` key IPv6
    /// clients by `TOKENSWAP_RATE_LIMIT_IPV6_PREFIX` as `TOKENSWAP_RATE_LIMIT` does: with
    /// /56, addresses in two /64s of one /56 are one client (before, those limits keyed by
    /// /64 whatever the setting, so each /64 got its own allowance).
    @Test func deviceAndIntrospectionLimitsKeyByTheConfiguredPrefix() async throws {
        let server = try await OperationsTests.sandbox([
            "TOKENSWAP_TRUSTED_PROXIES": "127.0.0.1", "TOKENSWAP_RATE_LIMIT_IPV6_PREFIX": "56",
            "TOKENSWAP_DEVICE_RATE_LIMIT": "2", "TOKENSWAP_INTROSPECTION_RATE_LIMIT": "2",
        ])
        for (path, body) in [("/v1/device/code", "scope=tv"), ("/v1/introspect", "token=at-x")] {
            var statuses: [Int] = []
            for host in ["2001:db8:c:1::1", "2001:db8:c:2::1", "2001:db8:c:3::1"] {
                statuses.append(
                    try await Exchange.request(
                        "POST", path, port: server.port,
                        headers: [
                            ("Content-Type", "application/x-www-form-urlencoded"),
                            ("X-Forwarded-For", host),
                        ], body: body
                    ).status)
            }
            #expect(statuses == [200, 200, 429], "\(path)")
            // Another /56 is another client.
            let other = try await Exchange.request(
                "POST", path, port: server.port,
                headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"),
                    ("X-Forwarded-For", "2001:db8:c:100::1"),
                ], body: body)
            #expect(other.status == 200, "\(path)")
        }
        #expect(try await server.stop() == 0)
    }

    /// CONTRACT §15: no setting traps. A per-minute limit past what an `Int` burst holds
    /// (`1e300`, or `Int.max` itself, which rounds up past it as a `Double`) once trapped
    /// building the burst when `serve` started; now it saturates: no practical limit.
    @Test func hugeEndpointLimitsStartAndServe() async throws {
        let server = try await OperationsTests.sandbox([
            "TOKENSWAP_DEVICE_RATE_LIMIT": "1e300",
            "TOKENSWAP_INTROSPECTION_RATE_LIMIT": String(Int.max),
        ])
        #expect(try await DeviceFlow.requestCode(server.port, scope: "tv").status == 200)
        let introspection = try await Exchange.form(
            "/v1/introspect", port: server.port, [("token", "at-x")])
        #expect(introspection.status == 200)
        #expect(try await server.stop() == 0)
    }
}
