import HTTPCore
import Testing

@testable import TokenSwap

/// Which URI a proof's `htu` must name (CONTRACT §13): the public URL's scheme and host,
/// else a trusted proxy's forwarded fields, else the connection and `Host`; the path as
/// requested.
@Suite struct DPoPRequestOriginTests {
    static func request(
        _ target: String = "/v1/spotify/refresh?x=1", peer: String? = "203.0.113.9",
        headers: [(String, String)] = [("Host", "Tokens.Example:8080")]
    ) -> HTTPRequest {
        var request = HTTPRequest(method: .post, target: target, headers: HTTPHeaders(headers))
        request.remoteAddress = peer
        return request
    }

    static func origin(publicURL: String? = nil, tls: Bool = false) -> DPoPRequestOrigin {
        DPoPRequestOrigin(
            publicURL: publicURL, trustedProxies: TrustedProxies(["10.0.0.0/8"]), servesTLS: tls)
    }

    @Test func publicURLWinsAndThePathIsAsRequested() {
        let origin = Self.origin(publicURL: "https://tokens.example.com/base")
        let forwarded = Self.request(
            peer: "10.1.2.3",
            headers: [
                ("Host", "internal:8080"), ("X-Forwarded-Proto", "http"), ("X-Forwarded-Host", "x"),
            ])
        #expect(
            origin.target(of: forwarded)?.description
                == "https://tokens.example.com/v1/spotify/refresh")
    }

    @Test func trustedProxyForwardsSchemeAndHostEachOnItsOwn() {
        let origin = Self.origin()
        let both = Self.request(
            peer: "10.1.2.3",
            headers: [
                ("Host", "internal:8080"), ("X-Forwarded-Proto", "https"),
                ("X-Forwarded-Host", "tokens.example.com"),
            ])
        #expect(
            origin.target(of: both)?.description == "https://tokens.example.com/v1/spotify/refresh")
        let schemeOnly = Self.request(
            peer: "10.1.2.3",
            headers: [("Host", "tokens.example.com"), ("X-Forwarded-Proto", "https")])
        #expect(
            origin.target(of: schemeOnly)?.description
                == "https://tokens.example.com/v1/spotify/refresh")
        // A list (two proxies' values) names no single origin: the connection's stands.
        let list = Self.request(
            peer: "10.1.2.3",
            headers: [("Host", "internal"), ("X-Forwarded-Host", "a.example, b.example")])
        #expect(origin.target(of: list)?.description == "http://internal/v1/spotify/refresh")
    }

    @Test func untrustedPeersCannotForgeTheOrigin() {
        let forged = Self.request(
            peer: "203.0.113.9",
            headers: [
                ("Host", "tokens.example:8080"), ("X-Forwarded-Proto", "https"),
                ("X-Forwarded-Host", "victim.example"),
            ])
        #expect(
            Self.origin().target(of: forged)?.description
                == "http://tokens.example:8080/v1/spotify/refresh")
        #expect(
            Self.origin(tls: true).target(of: Self.request())?.description
                == "https://tokens.example:8080/v1/spotify/refresh")
    }

    /// Without trusted proxies no peer forwards anything; a `Host` with whitespace
    /// around it (a field a handler built, not one the parser trimmed) names its host.
    @Test func withoutTrustedProxiesTheConnectionAndHostStand() {
        let origin = DPoPRequestOrigin(
            publicURL: nil, trustedProxies: TrustedProxies([]), servesTLS: false)
        let forwarded = Self.request(
            peer: "10.1.2.3",
            headers: [
                ("Host", "tokens.example"), ("X-Forwarded-Proto", "https"),
                ("X-Forwarded-Host", "victim.example"),
            ])
        #expect(
            origin.target(of: forwarded)?.description == "http://tokens.example/v1/spotify/refresh")
        let spaced = Self.request(headers: [("Host", " \ttokens.example ")])
        #expect(
            origin.target(of: spaced)?.description == "http://tokens.example/v1/spotify/refresh")
        #expect(origin.target(of: Self.request(headers: [("Host", " ")])) == nil)
    }

    @Test func noUsableHostMeansNoTarget() {
        #expect(Self.origin().target(of: Self.request(headers: [])) == nil)
        #expect(
            Self.origin().target(of: Self.request(headers: [("Host", "a"), ("Host", "b")])) == nil)
        #expect(Self.origin().target(of: Self.request(headers: [("Host", "a b")])) == nil)
        // A list in one field, short (a small string) or long, the comma anywhere.
        for host in [
            "a,b", ",a", "a,", "tokens.example.com,proxy.internal.example.com",
            "tokens.example.com:8080,", ",tokens.example.com:8080",
        ] {
            #expect(Self.origin().target(of: Self.request(headers: [("Host", host)])) == nil)
        }
        #expect(
            Self.origin().target(
                of: Self.request(headers: [("Host", "tokens.example.com.internal.example:8080")]))
                != nil)
    }

    /// The normal form of the host before is reused only for the same bytes: one origin
    /// asked about several hosts in turn answers each as a fresh one would, a spelling
    /// that `String` deems equal (a Kelvin sign for `K`) is not taken for its neighbour,
    /// and a public URL that is no URI proves nothing.
    @Test func theHostBeforeIsReusedOnlyForTheSameBytes() {
        let origin = Self.origin()
        for host in [
            "Kelvin.Example", "kelvin.example", "Kelvin.example", "\u{212A}elvin.example",
            "Kelvin.Example",
            "tokens.example:80", "tokens.example:8080", "tokens.example:80", "a b",
            "Kelvin.Example",
        ] {
            let request = Self.request(headers: [("Host", host)])
            let fresh = Self.origin().target(of: request)
            #expect(origin.target(of: request) == fresh)
            #expect(origin.target(of: request) == fresh)
        }
        #expect("\u{212A}elvin.example" == "Kelvin.example")
        _ = origin.target(of: Self.request(headers: [("Host", "Kelvin.example")]))
        #expect(
            origin.target(of: Self.request(headers: [("Host", "\u{212A}elvin.example")])) == nil)
        #expect(
            origin.target(of: Self.request(headers: [("Host", "Kelvin.Example")]))?.description
                == "http://kelvin.example/v1/spotify/refresh")
        #expect(
            Self.origin(publicURL: "https://user@tokens.example").target(of: Self.request()) == nil)
    }

    /// The URI of the request before is reused only for the same scheme, host and target
    /// bytes: one origin asked about targets and hosts in turn (repeats, a query, dots and
    /// percent-encodings, a target that is no path, a host that is no host) answers each
    /// as a fresh one would, behind a proxy and with a public URL alike.
    @Test func theRequestBeforeIsReusedOnlyForTheSameBytes() {
        let targets = [
            "/v1/spotify/refresh", "/v1/spotify/refresh", "/v1/spotify/refresh?x=1",
            "/v1/spotify/./refresh", "/v1/%73potify/refresh", "/v1/spotify/refresh#f",
            "/v1/\u{212A}/refresh", "/v1/K/refresh", "/v1/spotify/refresh", "/v1/spotify/refres",
            "/v1/spotify/refreshx", "", "/v1/spotify/refresh",
        ]
        let hosts = ["tokens.example", "Tokens.Example", "tokens.example", "a b", "tokens.example"]
        for origin in [Self.origin(), Self.origin(publicURL: "https://Tokens.Example:443/base")] {
            for host in hosts {
                for target in targets {
                    for peer in ["203.0.113.9", "10.1.2.3"] {
                        let request = Self.request(
                            target, peer: peer,
                            headers: [("Host", host), ("X-Forwarded-Proto", "https")])
                        let fresh = Self.origin(
                            publicURL: origin.publicBase == nil
                                ? nil : "https://Tokens.Example:443/base"
                        ).target(of: request)
                        #expect(origin.target(of: request) == fresh)
                        #expect(origin.target(of: request) == fresh)
                    }
                }
            }
        }
        let origin = Self.origin()
        _ = origin.target(of: Self.request("/v1/K/refresh", headers: [("Host", "k.example")]))
        #expect(
            origin.target(
                of: Self.request("/v1/\u{212A}/refresh", headers: [("Host", "k.example")]))
                == nil)
    }
}
