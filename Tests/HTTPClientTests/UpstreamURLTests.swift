import Testing

@testable import HTTPClient

@Suite struct UpstreamURLTests {
    @Test(arguments: [
        (
            "https://accounts.spotify.com/api/token", Origin.Scheme.https, "accounts.spotify.com",
            443, "/api/token"
        ),
        ("http://127.0.0.1:8080", .http, "127.0.0.1", 8080, "/"),
        ("HTTPS://Example.COM:8443/a?b=c#frag", .https, "example.com", 8443, "/a?b=c"),
        ("http://[::1]:9000/x", .http, "::1", 9000, "/x"),
        ("http://localhost?x=1", .http, "localhost", 80, "/?x=1"),
        ("https://host:/p", .https, "host", 443, "/p"),
    ])
    func parses(text: String, scheme: Origin.Scheme, host: String, port: Int, target: String) throws
    {
        let url = try UpstreamURL(text)
        #expect(url.origin.scheme == scheme)
        #expect(url.origin.host == host)
        #expect(Int(url.origin.port) == port)
        #expect(url.target == target)
    }

    @Test(arguments: [
        "ftp://host/", "https://", "https://user:pw@host/", "http://host:+80/", "http://host:0/",
        "http://host:65536/", "http://[::1/", "http://host/a b", "http://ho st/", "host/path",
        // The authority rule shared with the store's URL (Transport's URLAuthority): no
        // brackets but around an IPv6 literal, no percent-encoding or zone in a host.
        "http://[host]/", "http://a%41/", "http://[fe80::1%25eth0]/", "http://a[b/",
    ])
    func refuses(text: String) {
        #expect(throws: HTTPClientError.self) { try UpstreamURL(text) }
    }

    @Test func hostFieldOmitsDefaultPortAndBracketsIPv6() {
        #expect(Origin(scheme: .https, host: "a.example").hostField == "a.example")
        #expect(Origin(scheme: .https, host: "a.example", port: 8443).hostField == "a.example:8443")
        #expect(Origin(scheme: .http, host: "::1", port: 80).hostField == "[::1]")
        #expect(Origin(scheme: .http, host: "::1", port: 81).hostField == "[::1]:81")
    }
}
