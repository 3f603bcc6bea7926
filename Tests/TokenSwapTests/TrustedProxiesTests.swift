import Testing

@testable import TokenSwap

/// Which address a request is rate limited by: the peer, or X-Forwarded-For only when
/// the peer is a trusted proxy, walked from the right.
@Suite struct TrustedProxiesTests {
    static let proxies = TrustedProxies(["10.0.0.0/8", "2001:db8::/32", "127.0.0.1"])

    @Test(arguments: [
        // peer, X-Forwarded-For fields, client
        ("203.0.113.9", ["198.51.100.1"], "203.0.113.9"),  // untrusted peer: header ignored
        ("127.0.0.1", [], "127.0.0.1"),  // trusted peer, no header: the peer
        ("127.0.0.1", ["198.51.100.1"], "198.51.100.1"),
        ("127.0.0.1", ["1.1.1.1, 198.51.100.1"], "198.51.100.1"),  // right-most
        ("127.0.0.1", ["198.51.100.1, 10.0.0.5"], "198.51.100.1"),  // skip trusted hops
        ("127.0.0.1", ["198.51.100.1", "10.0.0.5, 10.0.0.6"], "198.51.100.1"),  // fields join
        ("127.0.0.1", ["10.0.0.7, 10.0.0.5"], "10.0.0.7"),  // all trusted: left-most
        ("127.0.0.1", ["forged, 198.51.100.1"], "198.51.100.1"),  // left junk never reached
        ("127.0.0.1", ["198.51.100.1, garbage"], "127.0.0.1"),  // junk: last trusted hop
        ("127.0.0.1", ["198.51.100.1, garbage, 10.0.0.5"], "10.0.0.5"),
        ("127.0.0.1", ["198.51.100.1:4711"], "198.51.100.1"),  // port stripped
        ("127.0.0.1", ["[2001:db9::7]:443"], "2001:db9::7"),
        ("127.0.0.1", ["2001:DB9::7"], "2001:db9::7"),  // canonical text: one bucket
        ("::ffff:10.1.1.1", ["198.51.100.1"], "198.51.100.1"),  // mapped peer is trusted
        ("2001:db8::1", ["203.0.113.1"], "203.0.113.1"),
        ("2001:db9::1", ["203.0.113.1"], "2001:db9::1"),
        ("0:0:0:0:0:0:0:1", ["203.0.113.1"], "::1"),  // ::1 is not trusted here
    ])
    func clientAddress(peer: String, forwardedFor: [String], client: String) {
        #expect(Self.proxies.clientAddress(peer: peer, forwardedFor: forwardedFor) == client)
    }

    @Test func withoutTrustedProxiesTheHeaderIsNeverBelieved() {
        let none = TrustedProxies([])
        #expect(none.clientAddress(peer: "127.0.0.1", forwardedFor: ["1.2.3.4"]) == "127.0.0.1")
        #expect(none.clientAddress(peer: nil, forwardedFor: ["1.2.3.4"]) == "unknown")
    }
}
